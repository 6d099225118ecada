import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { books, categories, chapters } from '../../db/schema/index.ts';

describeDb('catalogue calls', () => {
  let t: TestApp;
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('fills every list of the home index', async () => {
    const res = await get('/api/book/home/index');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ result: true, code: 200 });
    for (const list of [
      'recommendList',
      'newOnList',
      'kkbgList',
      'hotList',
      'newList',
      'updateList',
      'adList',
    ]) {
      expect(body.data[list].length, list).toBeGreaterThan(0);
    }
    expect(new Set(body.data.adList.map((a: { jumpType: number }) => a.jumpType))).toEqual(
      new Set([-1, -2, 2, 3]),
    );
    expect(body.data.hotList[0]).toHaveProperty('author');
  });

  it('heads each home section with the first six of its showcase, and the update list with the first of /new', async () => {
    const home = (await get('/api/book/home/index')).json().data;
    const ids = (list: { bookId: number }[]) => list.map((b) => b.bookId);
    const sections = {
      recommendList: 'e_recommend',
      newOnList: 'new_on',
      kkbgList: 'kkbg',
      hotList: 'hot',
      newList: 'new',
    } as const;
    for (const [list, type] of Object.entries(sections)) {
      const detail = (await get(`/api/book/showcase/detail/${type}/1`)).json().data;
      expect(ids(home[list]), list).toEqual(ids(detail.bookList).slice(0, 6));
      expect(home[list][0], list).toEqual(detail.bookList[0]);
    }
    const updates = (await get('/api/book/new/1')).json().data;
    expect(ids(home.updateList)).toEqual(ids(updates.bookList).slice(0, 6));
  });

  it('answers categories and publish statuses without the "all" entries', async () => {
    const { data } = (await get('/api/book/category')).json();
    expect(data.publishStatusList.map((s: { code: string }) => s.code).sort()).toEqual([
      'finish',
      'serialize',
    ]);
    expect(data.categoryList.length).toBeGreaterThanOrEqual(8);
  });

  it('pages filtered lists 20 at a time, past the end and with nothing to show', async () => {
    const [counted] = await t.db.select({ n: sql<number>`count(*)::int` }).from(books);
    const n = counted?.n ?? 0;
    const first = (await post('/api/book/query/all/0/1')).json().data;
    expect(first.bookList).toHaveLength(20);
    expect(first.totalItem).toBe(n);
    expect(first.totalPage).toBe(Math.ceil(n / 20));
    const last = (await get(`/api/book/query/all/0/${first.totalPage}`)).json().data;
    expect(last.bookList).toHaveLength(n - (first.totalPage - 1) * 20);
    const past = (await get(`/api/book/query/all/0/${first.totalPage + 1}`)).json().data;
    expect(past).toMatchObject({ bookList: [], totalItem: n, totalPage: first.totalPage });

    const finished = (await get('/api/book/query/finish/0/1')).json().data;
    expect(finished.bookList.every((b: { publishStatus: string }) => b.publishStatus === 'finish')).toBe(
      true,
    );
    const [category] = await t.db.select().from(categories).limit(1);
    const inCategory = (await get(`/api/book/query/all/${category?.id}/1`)).json().data;
    expect(
      inCategory.bookList.every((b: { categoryName: string }) => b.categoryName === category?.name),
    ).toBe(true);

    const [empty] = await t.db.insert(categories).values({ name: '空分类', sort: 99 }).returning();
    const none = (await get(`/api/book/query/all/${empty?.id}/1`)).json();
    expect(none).toMatchObject({ result: true, data: { bookList: [], totalItem: 0, totalPage: 0 } });
  });

  it('refuses page 0, unknown statuses and unknown showcase types with a message naming the field', async () => {
    const zero = await get('/api/book/query/all/0/0');
    expect(zero.statusCode).toBe(400);
    expect(zero.json()).toMatchObject({ result: false, code: 400, data: null });
    expect(zero.json().msg).toContain('page');
    expect((await get('/api/book/query/done/0/1')).json().msg).toContain('publishStatus');
    expect((await get('/api/book/showcase/detail/best/1')).statusCode).toBe(400);
    expect((await get('/api/book/new/abc')).json().msg).toContain('page');
  });

  it('answers every showcase type and the update list', async () => {
    for (const type of ['e_recommend', 'new', 'hot', 'kkbg', 'new_on']) {
      const { data } = (await get(`/api/book/showcase/detail/${type}/1`)).json();
      expect(data.bookList.length, type).toBeGreaterThan(0);
      expect(data.totalPage).toBe(Math.ceil(data.totalItem / 20));
    }
    const updates = (await get('/api/book/new/1')).json().data;
    expect(updates.bookList).toHaveLength(20);
  });

  it('gives book detail with chapters, the last chapter and recommendations; unknown books are 404', async () => {
    const { data } = (await get('/api/book/detail/1')).json();
    expect(data.book.bookId).toBe(1);
    expect(data.chapterList).toHaveLength(data.book.chapterCount);
    expect(data.lastChapter).toEqual(data.chapterList.at(-1));
    expect(data.recommendList.length).toBeGreaterThan(0);
    expect(data.recommendList.every((b: { categoryName: string; bookId: number }) => b.bookId !== 1)).toBe(
      true,
    );
    expect(
      data.recommendList.every((b: { categoryName: string }) => b.categoryName === data.book.categoryName),
    ).toBe(true);

    const missing = await get('/api/book/detail/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ result: false, code: 404 });
  });

  it('serves static calls with a strong ETag, 304 on a match, and dynamic calls with no-store', async () => {
    const first = await get('/api/book/detail/2');
    expect(first.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get('/api/book/detail/2', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get('/api/book/detail/2', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get('/api/book/init_search')).headers['cache-control']).toBe('no-store');
  });

  it('answers unknown API paths with 404 in the envelope', async () => {
    const res = await get('/api/book/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ result: false, code: 404, data: null });
    expect((await post('/api/none')).json().code).toBe(404);
  });

  it('lists chapters with free and priced entries from the query or the form body', async () => {
    const fromQuery = (await post('/api/book/chapter/list?bookId=1')).json();
    expect(fromQuery.result).toBe(true);
    expect(fromQuery.data[0]).toMatchObject({ bookId: 1, number: 1, price: 0, alreadyBuy: false });
    expect(fromQuery.data.some((c: { price: number }) => c.price > 0)).toBe(true);
    const fromBody = await t.app.inject({
      method: 'POST',
      url: '/api/book/chapter/list',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'bookId=1',
    });
    expect(fromBody.json().data).toEqual(fromQuery.data);
    expect((await post('/api/book/chapter/list')).json().msg).toContain('bookId');
    expect((await post('/api/book/chapter/list?bookId=999999')).statusCode).toBe(404);
  });

  it('reads free chapters with page sizes, counts the read, and serves the pages as WebP', async () => {
    const before = (await get('/api/book/detail/3')).json().data.book.readCount;
    const res = await get('/api/book/read_chapter?bookId=3&number=1');
    const { data } = res.json();
    expect(res.json()).toMatchObject({ result: true, code: 200 });
    expect(data.bookPics.length).toBeGreaterThan(0);
    expect(data.bookPicSizes).toHaveLength(data.bookPics.length);
    expect(data.bookPicSizes[0].width).toBeGreaterThan(0);
    expect(data).toMatchObject({ number: 1, lastNumber: 0, nextNumber: 2, price: 0 });
    expect((await get('/api/book/detail/3')).json().data.book.readCount).toBe(before + 1);

    const image = await get(`/${data.bookPics[0]}_500_0.img`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    const sharp = (await import('sharp')).default;
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 500 });
  });

  it('answers priced chapters with 101 without a session, 999 with the price, and reads VIP-free books for VIPs', async () => {
    const [priced] = await t.db
      .select({
        bookId: chapters.bookId,
        number: chapters.number,
        price: chapters.price,
        vipFree: books.vipFree,
      })
      .from(chapters)
      .innerJoin(books, eq(books.id, chapters.bookId))
      .where(sql`${chapters.price} > 0 and ${books.vipFree}`)
      .limit(1);
    if (!priced) throw new Error('the demo library has no priced chapter in a VIP-free book');
    const url = `/api/book/read_chapter?bookId=${priced.bookId}&number=${priced.number}`;

    expect((await get(url)).json()).toMatchObject({ result: false, code: 101 });

    const registered = await post('/api/user/register');
    const cookie = sessionCookie(registered);
    const owed = (await get(url, { cookie })).json();
    expect(owed).toMatchObject({ result: false, code: 999, data: { price: priced.price, bookPics: [] } });

    const userId = registered.json().data.userId;
    await t.db.execute(sql`update users set vip_end = now() + interval '30 days' where id = ${userId}`);
    const vip = (await get(url, { cookie })).json();
    expect(vip.result).toBe(true);
    expect(vip.data.bookPics.length).toBeGreaterThan(0);

    const [notVipFree] = await t.db
      .select({ bookId: chapters.bookId, number: chapters.number })
      .from(chapters)
      .innerJoin(books, eq(books.id, chapters.bookId))
      .where(sql`${chapters.price} > 0 and not ${books.vipFree}`)
      .limit(1);
    const refused = (
      await get(`/api/book/read_chapter?bookId=${notVipFree?.bookId}&number=${notVipFree?.number}`, {
        cookie,
      })
    ).json();
    expect(refused.code).toBe(999);
  });

  it('answers a chapter past the end with code 400 and the spec text', async () => {
    const res = await get('/api/book/read_chapter?bookId=1&number=9999');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: false, code: 400, msg: '没有更多章节啦 ^_^' });
    expect((await get('/api/book/read_chapter?bookId=1')).json().msg).toContain('number');
  });

  it('keeps chapter counts equal to the chapters there are', async () => {
    const rows = await t.db.execute(
      sql`select count(*)::int as n from books b where b.chapter_count <> (select count(*) from chapters c where c.book_id = b.id)`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });
});

describeDb('search', () => {
  let t: TestApp;
  const search = (content: string) =>
    t.app.inject({ method: 'POST', url: `/api/book/search?content=${encodeURIComponent(content)}` });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('finds books by two- and one-character parts of the title, and by author', async () => {
    const [book] = await t.db.select().from(books).where(sql`char_length(${books.title}) >= 3`).limit(1);
    if (!book) throw new Error('no demo book');
    const two = (await search(book.title.slice(1, 3))).json();
    expect(two.result).toBe(true);
    expect(two.data.map((b: { bookId: number }) => b.bookId)).toContain(book.id);
    const one = (await search(book.title.slice(0, 1))).json();
    expect(one.data.length).toBeGreaterThan(0);
    const byAuthor = (await search(` ${book.author} `)).json();
    expect(byAuthor.data.map((b: { bookId: number }) => b.bookId)).toContain(book.id);
  });

  it('refuses empty and over-20-character keywords with the spec messages', async () => {
    expect((await search('   ')).json()).toMatchObject({ result: false, code: 400, msg: '请输入搜索关键字' });
    expect((await search('一'.repeat(21))).json()).toMatchObject({
      code: 400,
      msg: '搜索关键字最长不超过20个字',
    });
    expect((await search('一'.repeat(20))).json().result).toBe(true);
  });

  it('pages results 20 at a time', async () => {
    const [category] = await t.db.select().from(categories).limit(1);
    await t.db.insert(books).values(
      Array.from({ length: 25 }, (_, i) => ({
        title: `翻页之书${i}`,
        author: '测试作者',
        cover: 'covers/x-v.png',
        horiCover: 'covers/x-h.png',
        categoryId: category?.id ?? 1,
        publishStatus: 'serialize',
      })),
    );
    const page = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/book/search?content=${encodeURIComponent('翻页')}&page=${n}`,
      });
    const first = (await page(1)).json().data;
    const second = (await page(2)).json().data;
    expect(first).toHaveLength(20);
    expect(second).toHaveLength(5);
    const ids = new Set([...first, ...second].map((b: { bookId: number }) => b.bookId));
    expect(ids.size).toBe(25);
    expect((await page(3)).json().data).toEqual([]);
  });

  /** Adds books (title, author, description, read count) to the first category; answers their ids in order. */
  async function addBooks(list: [string, string, string, number][]): Promise<number[]> {
    const [category] = await t.db.select().from(categories).limit(1);
    const added = await t.db
      .insert(books)
      .values(
        list.map(([title, author, abstractContent, readCount]) => ({
          title,
          author,
          abstractContent,
          readCount,
          cover: 'covers/x-v.png',
          horiCover: 'covers/x-h.png',
          categoryId: category?.id ?? 1,
          publishStatus: 'serialize',
        })),
      )
      .returning({ id: books.id });
    return added.map((b) => b.id);
  }
  const idsOf = async (content: string, page = 1) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `/api/book/search?content=${encodeURIComponent(content)}&page=${page}`,
      })
    )
      .json()
      .data.map((b: { bookId: number }) => b.bookId);

  it('ranks title matches first, then author, then description, each by read count then id', async () => {
    const [inDescription, inDescriptionToo, byAuthor, titleLow, titleHigh, inTitleAndDescription] =
      await addBooks([
        ['无关的书甲', '某作者', '一个关于蹀躞的故事', 900_000],
        ['无关的书乙', '某作者', '又一个蹀躞的故事', 900_000],
        ['无关的书丙', '蹀躞客', '没有关系', 50_000],
        ['蹀躞之书', '某作者', '', 10],
        ['夜行蹀躞', '某作者', '', 2_000],
        ['蹀躞双城', '某作者', '也写在简介里：蹀躞', 1],
      ]);
    const ranked = [titleHigh, titleLow, inTitleAndDescription, byAuthor, inDescription, inDescriptionToo];
    // Two characters, one character (each of them), and the whole keyword in the middle of a longer one.
    expect(await idsOf('蹀躞')).toEqual(ranked);
    expect(await idsOf('蹀')).toEqual(ranked);
    expect(await idsOf('躞')).toEqual(ranked);
    expect(await idsOf('蹀躞客')).toEqual([byAuthor]);
    expect(await idsOf('蹀躞的故事')).toEqual([inDescription, inDescriptionToo]);
    expect(await idsOf('之书')).toContain(titleLow);
  });

  it('finds a three-character keyword only where it is whole, and case-insensitively', async () => {
    const [apart, whole, latin] = await addBooks([
      ['鸿鹄鹄雁', '某作者', '', 5],
      ['鸿鹄雁来', '某作者', '', 1],
      ['Yueman Comics', 'Some Author', '', 1],
    ]);
    expect(await idsOf('鸿鹄雁')).toEqual([whole]);
    expect(await idsOf('鸿鹄')).toEqual([apart, whole]);
    expect(await idsOf('yUEMAN')).toEqual([latin]);
    expect(await idsOf('yu')).toContain(latin);
    expect(await idsOf('Y')).toContain(latin);
  });

  it('ignores % and _ as punctuation, never as wildcards', async () => {
    // Search folds punctuation away on both sides (docs/decisions.md, "Search the way readers type").
    expect((await search('%')).json().data).toEqual([]);
    expect((await search('_')).json().data).toEqual([]);
    const [percent, underscore, dash] = await addBooks([
      ['满分100%恋人', '某作者', '', 1],
      ['a_b漫画', '某作者', '', 1],
      ['a-b漫画', '某作者', '', 1],
      ['axb漫画', '某作者', '', 1],
    ]);
    expect(await idsOf('%')).toEqual([]);
    expect(await idsOf('%_')).toEqual([]);
    expect(await idsOf('00%恋')).toEqual([percent]);
    expect(await idsOf('100恋人')).toEqual([percent]);
    expect(await idsOf('a_b漫画')).toEqual([underscore, dash]);
    expect(await idsOf('a%b漫画')).toEqual([underscore, dash]);
  });

  it('pages across the tiers: the title matches, then the author matches', async () => {
    const titles = await addBooks(
      Array.from({ length: 23 }, (_, i): [string, string, string, number] => [
        `翎羽之书${i}`,
        '某作者',
        '',
        100 - i,
      ]),
    );
    const authors = await addBooks(
      Array.from({ length: 4 }, (_, i): [string, string, string, number] => [
        `无题${i}`,
        '翎羽',
        '',
        1000 - i,
      ]),
    );
    expect(await idsOf('翎羽', 1)).toEqual(titles.slice(0, 20));
    expect(await idsOf('翎羽', 2)).toEqual([...titles.slice(20), ...authors]);
    expect(await idsOf('翎', 2)).toEqual([...titles.slice(20), ...authors]);
    expect(await idsOf('翎羽', 3)).toEqual([]);
  });

  it('offers hot words', async () => {
    const { data } = (await t.app.inject({ url: '/api/book/init_search' })).json();
    expect(data.hotWords.length).toBeGreaterThan(0);
  });
});
