// The console's catalogue calls: every role reads, owners and editors write; each write is audited, refused input
// and a stale edit change nothing, and readers see a change at once on this server (its kept answers dropped).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditedWrites, consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { auditLog, books, chapterPurchases, chapters } from '../../db/schema/index.ts';

describeDb('the console’s catalogue', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof consoleOperators>>['admin'];

  beforeAll(async () => {
    // Static answers kept for a minute: a reader seeing a change at once proves they were dropped.
    t = await createTestApp({ staticCacheMs: 60_000 });
    ({ admin } = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']));
  });
  afterAll(() => t?.close());

  const reader = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();
  const snapshot = async () => ({
    books: await t.db.select().from(books).orderBy(books.id),
    chapters: await t.db.select().from(chapters).orderBy(chapters.id),
    audit: await auditedWrites(t.db),
  });

  it('lists books page by page with filters, for every role', async () => {
    for (const role of ['owner', 'editor', 'finance', 'support'] as const) {
      const page = (await admin(role, 'GET', '/api/admin/books?size=5')).json().data;
      expect(page.list).toHaveLength(5);
      expect(page.total).toBeGreaterThan(5);
    }
    const finished = (await admin('support', 'GET', '/api/admin/books?status=finish&size=100')).json().data;
    expect(finished.list.every((b: { publishStatus: string }) => b.publishStatus === 'finish')).toBe(true);
    const title = (await reader('/api/book/detail/3')).data.book.title as string;
    const found = (
      await admin('editor', 'GET', `/api/admin/books?q=${encodeURIComponent(title.slice(0, 2))}`)
    ).json();
    expect(found.data.list.map((b: { id: number }) => b.id)).toContain(3);
    // A wildcard in the words is a literal character, not "everything".
    expect((await admin('editor', 'GET', '/api/admin/books?q=%25')).json().data.total).toBe(0);
  });

  it('refuses every catalogue write to finance and support, changing nothing', async () => {
    const book = (await admin('owner', 'GET', '/api/admin/books/3')).json().data;
    const before = await snapshot();
    for (const role of ['finance', 'support'] as const) {
      const writes = [
        admin(role, 'POST', '/api/admin/books/3', { version: book.version, title: '改名' }),
        admin(role, 'POST', '/api/admin/books/3', { version: book.version, releaseDays: [1] }),
        admin(role, 'POST', '/api/admin/books/3/pricing', { freeChapters: 0, price: 1 }),
        admin(role, 'POST', '/api/admin/books/3/chapters/1', { price: 9 }),
      ];
      for (const res of await Promise.all(writes)) expect(res.statusCode, res.body).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('saves an editor’s book edit, audited, and readers see it at once; a stale edit is refused', async () => {
    const before = (await admin('editor', 'GET', '/api/admin/books/3')).json().data;
    // A reader's detail is kept now (for a minute).
    expect((await reader('/api/book/detail/3')).data.book.title).toBe(before.title);
    const saved = await admin('editor', 'POST', '/api/admin/books/3', {
      version: before.version,
      title: '新的书名',
      author: '新作者',
      status: 'finish',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ title: '新的书名', author: '新作者', status: 'finish' });
    const detail = (await reader('/api/book/detail/3')).data;
    expect(detail.book.title).toBe('新的书名');
    // Search finds it by its new title and its new author (the books' triggers keep the search index).
    const search = await t.app.inject({
      method: 'POST',
      url: `/api/book/search?content=${encodeURIComponent('新作者')}`,
    });
    expect(JSON.stringify(search.json())).toContain('新的书名');

    // Another operator still holding the old version: refused, nothing written.
    const snap = await snapshot();
    const stale = await admin('owner', 'POST', '/api/admin/books/3', {
      version: before.version,
      title: '覆盖',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().msg).toBe('内容已被他人修改，请刷新后再试');
    expect(await snapshot()).toEqual(snap);
    // A bad field is named in the answer, for the form to show its message beside it.
    const blank = await admin('owner', 'POST', '/api/admin/books/3', { version: before.version, title: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ msg: '表单字段 title 不正确', data: { field: 'title' } });
    const missing = await admin('owner', 'POST', '/api/admin/books/3', { title: '无版本' });
    expect(missing.json()).toMatchObject({ msg: '缺少表单字段 version', data: { field: 'version' } });
    expect(await snapshot()).toEqual(snap);

    const audit = await t.db.select().from(auditLog).orderBy(auditLog.id);
    expect(audit.at(-1)).toMatchObject({
      actor: 'editor1',
      action: 'book.edit',
      target: 'book:3',
      before: { title: before.title },
      after: { title: '新的书名', author: '新作者' },
    });
  });

  it('sets a book’s release weekdays (owner and editor), audited; the readers’ calendar shows it on those days', async () => {
    const bookId = 9;
    for (const [role, days] of [
      ['editor', [5, 1, 5]],
      ['owner', [3, 1]],
    ] as const) {
      const book = (await admin(role, 'GET', `/api/admin/books/${bookId}`)).json().data;
      const saved = await admin(role, 'POST', `/api/admin/books/${bookId}`, {
        version: book.version,
        releaseDays: days,
        status: 'serialize',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().data.releaseDays).toEqual([...new Set(days)].sort());
      const audit = await t.db.select().from(auditLog).orderBy(auditLog.id);
      expect(audit.at(-1)).toMatchObject({
        actor: `${role}1`,
        action: 'book.edit',
        target: `book:${bookId}`,
        before: { releaseDays: book.releaseDays },
        after: { releaseDays: [...new Set(days)].sort() },
      });
    }
    const calendar = (await reader('/api/book/calendar')).data as {
      weekday: number;
      books: { book: { bookId: number } }[];
    }[];
    for (const day of calendar) {
      expect(
        day.books.some((b) => b.book.bookId === bookId),
        `weekday ${day.weekday}`,
      ).toBe([1, 3].includes(day.weekday));
    }
    const book = (await admin('editor', 'GET', `/api/admin/books/${bookId}`)).json().data;
    const snap = await snapshot();
    for (const bad of [[0], [8], [1, 2, 3, 4, 5, 6, 7, 1], ['一']]) {
      const res = await admin('editor', 'POST', `/api/admin/books/${bookId}`, {
        version: book.version,
        releaseDays: bad,
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await snapshot()).toEqual(snap);
  });

  it('prices a book in bulk and one chapter; readers’ catalogue and pages follow at once', async () => {
    // Chapter 1 of book 3 is free: its page is served without a grant, and kept.
    const page = (await reader('/api/book/read_chapter?bookId=3&number=1')).data.bookPics[0] as string;
    expect((await t.app.inject(`/${page}_200_0.img`)).statusCode).toBe(200);
    expect((await reader('/api/book/detail/3')).data.chapterList[0].price).toBe(0);

    const priced = await admin('editor', 'POST', '/api/admin/books/3/pricing', {
      freeChapters: 0,
      price: 20,
    });
    expect(priced.statusCode, priced.body).toBe(200);
    expect(priced.json().data.chapters.every((c: { price: number }) => c.price === 20)).toBe(true);
    expect((await reader('/api/book/detail/3')).data.chapterList[0].price).toBe(20);
    // The page of a chapter that is priced now needs a grant, at once.
    expect((await t.app.inject(`/${page}_200_0.img`)).statusCode).toBe(403);

    const one = await admin('owner', 'POST', '/api/admin/books/3/chapters/1', { price: 0, title: '序章' });
    expect(one.json().data).toEqual({ number: 1, title: '序章', price: 0, publishAt: null });
    const list = (await reader('/api/book/detail/3')).data.chapterList;
    expect(list[0]).toMatchObject({ price: 0 });
    expect(list[1]).toMatchObject({ price: 20 });
    const actions = (await t.db.select().from(auditLog).orderBy(auditLog.id)).slice(-2).map((a) => a.action);
    expect(actions).toEqual(['book.pricing', 'chapter.edit']);
  });

  it('unpublishes a book: gone from lists, search and detail; its buyers still read what they bought', async () => {
    const bookId = 5;
    const book = (await admin('editor', 'GET', `/api/admin/books/${bookId}`)).json().data;
    const priced = book.chapters.find((c: { price: number }) => c.price > 0);
    expect(priced).toBeDefined();
    // A buyer of that chapter (ownership as a purchase leaves it), and a stranger.
    const buyer = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    const stranger = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    await t.db
      .insert(chapterPurchases)
      .values({ userId: buyer.json().data.userId, chapterId: priced.id, price: 0 });
    const read = (cookie: string, number: number) =>
      t.app.inject({ url: `/api/book/read_chapter?bookId=${bookId}&number=${number}`, headers: { cookie } });
    const inList = async () => {
      const list = (await reader(`/api/book/query/all/${book.categoryId}/1`)).data;
      return { ids: list.bookList.map((b: { bookId: number }) => b.bookId), total: list.totalItem as number };
    };
    const before = await inList();
    expect(before.ids).toContain(bookId);
    const search = async () =>
      JSON.stringify(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/book/search?content=${encodeURIComponent(book.title)}`,
          })
        ).json(),
      );

    const hidden = await admin('editor', 'POST', `/api/admin/books/${bookId}`, {
      version: book.version,
      published: false,
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((await t.app.inject(`/api/book/detail/${bookId}`)).statusCode).toBe(404);
    const after = await inList();
    expect(after.ids).not.toContain(bookId);
    expect(after.total).toBe(before.total - 1);
    expect(await search()).not.toContain(`"bookId":${bookId}`);
    // The buyer reads the bought chapter (its pages granted); nobody reads anything else of it.
    const bought = await read(sessionCookie(buyer), priced.number);
    expect(bought.json().code, bought.body).toBe(200);
    expect(bought.json().data.bookPics[0]).toMatch(/^g\//);
    expect((await read(sessionCookie(stranger), priced.number)).statusCode).toBe(404);
    expect((await read(sessionCookie(buyer), 1)).statusCode).toBe(404);
    // Nor can anyone buy into it: its chapters are not for sale (not "too few coins": not there at all).
    const buy = await t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${priced.id}`,
      headers: { cookie: sessionCookie(stranger) },
    });
    expect(buy.statusCode).toBe(404);
    expect(buy.json().msg).toBe('章节不存在');

    const again = (await admin('editor', 'GET', `/api/admin/books/${bookId}`)).json().data;
    expect(again.published).toBe(false);
    await admin('editor', 'POST', `/api/admin/books/${bookId}`, { version: again.version, published: true });
    expect((await t.app.inject(`/api/book/detail/${bookId}`)).statusCode).toBe(200);
    expect(await inList()).toEqual(before);
    expect(await search()).toContain(`"bookId":${bookId}`);
  });

  it('schedules a chapter: hidden until its time, then out at once with the book first in the update list', async () => {
    const bookId = 6;
    const book = (await admin('editor', 'GET', `/api/admin/books/${bookId}`)).json().data;
    const last = book.chapters.at(-1);
    const detail = async () => (await reader(`/api/book/detail/${bookId}`)).data;
    const before = await detail();
    expect(before.chapterList.map((c: { number: number }) => c.number)).toContain(last.number);
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await admin('editor', 'POST', `/api/admin/books/${bookId}/chapters/${last.number}`, {
      publishAt: inAnHour,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(new Date(scheduled.json().data.publishAt).toISOString()).toBe(inAnHour);
    // Gone for readers at once: not listed, not counted, not readable, not for sale.
    const hidden = await detail();
    expect(hidden.chapterList.map((c: { number: number }) => c.number)).not.toContain(last.number);
    expect(hidden.book.chapterCount).toBe(before.book.chapterCount - 1);
    const read = await t.app.inject(`/api/book/read_chapter?bookId=${bookId}&number=${last.number}`);
    expect(read.json().result).toBe(false);
    const stranger = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    const buy = await t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${last.id}`,
      headers: { cookie: sessionCookie(stranger) },
    });
    expect(buy.statusCode).toBe(404);
    // Its time comes (moved into the past here), and the job lets it out.
    await t.db
      .update(chapters)
      .set({ publishAt: new Date(Date.now() - 1000) })
      .where(eq(chapters.id, last.id));
    expect((await t.app.jobs.runOnce('scheduled-chapters')).ran).toBe(true);
    const out = await detail();
    expect(out.chapterList.map((c: { number: number }) => c.number)).toContain(last.number);
    expect(out.book.chapterCount).toBe(before.book.chapterCount);
    const updates = (await reader('/api/book/new/1')).data;
    expect(updates.bookList[0].bookId).toBe(bookId);
    // A time already passed, or null, lets a chapter out at once.
    await admin('editor', 'POST', `/api/admin/books/${bookId}/chapters/${last.number}`, {
      publishAt: inAnHour,
    });
    await admin('editor', 'POST', `/api/admin/books/${bookId}/chapters/${last.number}`, { publishAt: null });
    expect((await detail()).book.chapterCount).toBe(before.book.chapterCount);
    expect(
      (await admin('editor', 'POST', `/api/admin/books/${bookId}/chapters/1`, { publishAt: 'tomorrow' }))
        .statusCode,
    ).toBe(400);
  });

  it('deletes a book no reader paid for, audited; refuses one with a buyer, and other roles', async () => {
    const [priced] = await t.db
      .select()
      .from(chapters)
      .where(eq(chapters.bookId, 12))
      .orderBy(chapters.number)
      .limit(1);
    const buyer = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    await t.db
      .insert(chapterPurchases)
      .values({ userId: buyer.json().data.userId, chapterId: priced?.id as number, price: 0 });
    const before = await snapshot();
    for (const role of ['finance', 'support'] as const) {
      expect((await admin(role, 'POST', '/api/admin/books/11/delete')).statusCode).toBe(403);
    }
    const kept = await admin('editor', 'POST', '/api/admin/books/12/delete');
    expect(kept.statusCode).toBe(409);
    expect(kept.json()).toMatchObject({
      result: false,
      code: 409,
      msg: '已有读者购买或消费过这本书的章节，不能删除；如需让读者看不到，请下架',
    });
    expect(await snapshot()).toEqual(before);

    const title = (await reader('/api/book/detail/11')).data.book.title as string;
    const deleted = await admin('editor', 'POST', '/api/admin/books/11/delete');
    expect(deleted.json()).toMatchObject({ result: true, msg: '已删除' });
    expect(await t.db.$count(books, eq(books.id, 11))).toBe(0);
    expect(await t.db.$count(chapters, eq(chapters.bookId, 11))).toBe(0);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'book.delete'));
    expect(audit).toMatchObject({ actor: 'editor1', target: 'book:11', after: null });
    expect(audit?.before).toMatchObject({ title });
    // Readers see it gone at once.
    expect((await reader('/api/book/detail/11')).code).toBe(404);
    expect((await admin('editor', 'POST', '/api/admin/books/11/delete')).statusCode).toBe(404);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const book = (await admin('editor', 'GET', '/api/admin/books/4')).json().data;
    const before = await snapshot();
    const refused = [
      ['/api/admin/books/4', { version: book.version, title: '   ' }],
      ['/api/admin/books/4', { version: book.version, categoryId: 99_999 }],
      ['/api/admin/books/4', { version: book.version, status: 'draft' }],
      ['/api/admin/books/4/pricing', { freeChapters: -1, price: 10 }],
      ['/api/admin/books/4/pricing', { freeChapters: 1, price: 1.5 }],
      ['/api/admin/books/4/chapters/1', { price: -3 }],
      ['/api/admin/books/4/chapters/1', {}],
      ['/api/admin/books/4/chapters/9999', { price: 3 }],
      ['/api/admin/books/99999/pricing', { freeChapters: 1, price: 3 }],
    ] as const;
    for (const [url, body] of refused) {
      const res = await admin('editor', 'POST', url, body);
      expect([400, 404], `${url} ${JSON.stringify(body)}: ${res.body}`).toContain(res.statusCode);
      expect(res.json().result).toBe(false);
      expect(res.json().msg).toBeTruthy();
    }
    expect(await snapshot()).toEqual(before);
  });
});

describeDb('the console’s home page', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof consoleOperators>>['admin'];

  beforeAll(async () => {
    t = await createTestApp({ staticCacheMs: 60_000 });
    ({ admin } = await consoleOperators(t, ['editor', 'support']));
  });
  afterAll(() => t?.close());

  const home = async () => (await t.app.inject('/api/book/home/index')).json().data;
  const ids = (list: { bookId: number }[]) => list.map((b) => b.bookId);

  it('reorders a section as the editor dragged it; the reader’s home follows at once; support is refused', async () => {
    const sections = (await admin('support', 'GET', '/api/admin/home/sections')).json().data;
    const hot = sections.find((s: { type: string }) => s.type === 'hot');
    const order = ids(hot.books);
    expect(order.length).toBeGreaterThan(2);
    const homeBefore = await home();
    const reversed = [...order].reverse();
    expect(
      (await admin('support', 'POST', '/api/admin/home/sections/hot', { bookIds: reversed })).statusCode,
    ).toBe(403);
    const saved = await admin('editor', 'POST', '/api/admin/home/sections/hot', { bookIds: reversed });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(ids(saved.json().data.books)).toEqual(reversed);
    const homeAfter = await home();
    expect(JSON.stringify(homeAfter)).not.toEqual(JSON.stringify(homeBefore));
    const detail = (await t.app.inject('/api/book/showcase/detail/hot/1')).json().data;
    expect(ids(detail.bookList)).toEqual(reversed.slice(0, ids(detail.bookList).length));
    // Duplicates, unknown books or an unknown section: refused, the order kept.
    for (const [url, body] of [
      ['/api/admin/home/sections/hot', { bookIds: [reversed[0], reversed[0]] }],
      ['/api/admin/home/sections/hot', { bookIds: [99_999] }],
      ['/api/admin/home/sections/best', { bookIds: [1] }],
    ] as const) {
      expect((await admin('editor', 'POST', url, body)).statusCode, url).toBe(400);
    }
    const again = (await admin('editor', 'GET', '/api/admin/home/sections')).json().data;
    expect(ids(again.find((s: { type: string }) => s.type === 'hot').books)).toEqual(reversed);
  });

  it('sets the hot words in order, audited; empty or repeated words are refused', async () => {
    const saved = await admin('editor', 'POST', '/api/admin/home/hot-words', {
      words: ['热血', '恋爱', '校园'],
    });
    expect(saved.json().data).toEqual(['热血', '恋爱', '校园']);
    const init = (await t.app.inject('/api/book/init_search')).json();
    expect(init.data.hotWords).toEqual(['热血', '恋爱', '校园']);
    for (const words of [['热血', '热血'], ['  '], Array.from({ length: 31 }, (_, i) => `词${i}`)]) {
      expect((await admin('editor', 'POST', '/api/admin/home/hot-words', { words })).statusCode).toBe(400);
    }
    expect((await admin('editor', 'GET', '/api/admin/home/hot-words')).json().data).toEqual([
      '热血',
      '恋爱',
      '校园',
    ]);
    const last = (await t.db.select().from(auditLog).orderBy(auditLog.id)).at(-1);
    expect(last).toMatchObject({ action: 'home.hot_words', after: ['热血', '恋爱', '校园'] });
  });
});
