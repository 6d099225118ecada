// Search the way readers type, through the real app: pinyin and initials (polyphonic characters both ways),
// traditional and full-width input, an alias an operator sets, one typo, the ranking, the keyword limit, the
// suggestions with why they matched, and the counts the console's hot-words screen reads.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { books, categories } from '../../db/schema/index.ts';
import { fillAllSearchKeys } from './search-keys.repository.ts';

describeDb('search the way readers type', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof consoleOperators>>['admin'];
  const id: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await consoleOperators(t, ['editor']));
    const [category] = await t.db.select().from(categories).limit(1);
    const book = (title: string, author: string, readCount: number, abstractContent = '') => ({
      title,
      author,
      readCount,
      abstractContent,
      cover: 'covers/x-v.png',
      horiCover: 'covers/x-h.png',
      categoryId: category?.id ?? 1,
      publishStatus: 'serialize',
    });
    const added = await t.db
      .insert(books)
      .values([
        book('斗罗大陆', '唐家三少', 50),
        book('斗罗大陆外传', '唐家三少', 900),
        book('新斗罗大陆', '某人', 5000),
        book('重生之都市仙尊', '夜北', 10),
        book('天天向上', '斗罗大陆研究会', 7000),
        book('平凡日常', '路人', 8000, '一部关于斗罗大陆的同人'),
        book('ＯＮＥ·ＰＩＥＣＥ 航海王', '尾田荣一郎', 30),
      ])
      .returning({ id: books.id, title: books.title });
    for (const b of added) id[b.title] = b.id;
    // What the search-keys job does within seconds of a write it did not make.
    await fillAllSearchKeys(t.db);
  });
  afterAll(() => t?.close());

  const search = async (content: string, page = 1) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/book/search?content=${encodeURIComponent(content)}&page=${page}`,
    });
    return res.json() as { result: boolean; msg: string; data: { bookId: number; title: string }[] };
  };
  const titles = async (content: string) => (await search(content)).data.map((b) => b.title);
  const suggest = async (content: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/book/suggest?content=${encodeURIComponent(content)}` })
    ).json();

  it('ranks exact title, title prefix, title substring, author, description; each by read count', async () => {
    expect(await titles('斗罗大陆')).toEqual([
      '斗罗大陆',
      '斗罗大陆外传',
      '新斗罗大陆',
      '天天向上',
      '平凡日常',
    ]);
  });

  it('finds full pinyin, spaced pinyin and initials, polyphonic characters read either way', async () => {
    for (const word of ['douluodalu', 'dou luo', 'dldl', 'DLDL']) {
      expect(await titles(word), word).toEqual(expect.arrayContaining(['斗罗大陆', '斗罗大陆外传']));
    }
    expect((await titles('dldl')).slice(0, 3)).toEqual(['新斗罗大陆', '斗罗大陆外传', '斗罗大陆']);
    // 重生 is chong sheng in context; readers type zhong sheng too.
    for (const word of ['chongsheng', 'zhongsheng', 'cszdsxz', 'zs']) {
      expect(await titles(word), word).toContain('重生之都市仙尊');
    }
    // The author's pinyin ranks as an author match.
    expect(await titles('tangjiasanshao')).toEqual(['斗罗大陆外传', '斗罗大陆']);
  });

  it('folds traditional characters, full-width letters, case, spaces and punctuation', async () => {
    expect((await titles('鬥羅大陸'))[0]).toBe('斗罗大陆');
    expect((await titles('斗罗 大陆!'))[0]).toBe('斗罗大陆');
    expect(await titles('one piece')).toEqual(['ＯＮＥ·ＰＩＥＣＥ 航海王']);
    expect(await titles('ＯＮＥＰＩＥＣＥ')).toEqual(['ＯＮＥ·ＰＩＥＣＥ 航海王']);
  });

  it('finds a book by an alias an operator sets, at once, between titles and pinyin', async () => {
    expect(await titles('ワンピース')).toEqual([]);
    const book = (await admin('editor', 'GET', `/api/admin/books/${id['ＯＮＥ·ＰＩＥＣＥ 航海王']}`)).json()
      .data;
    const saved = await admin('editor', 'POST', `/api/admin/books/${book.id}`, {
      version: book.version,
      aliases: [' 海贼王 ', '海贼王', 'ワンピース'],
    });
    expect(saved.json().data.aliases).toEqual(['海贼王', 'ワンピース']);
    expect(await titles('海贼王')).toEqual(['ＯＮＥ·ＰＩＥＣＥ 航海王']);
    expect(await titles('haizeiwang')).toEqual(['ＯＮＥ·ＰＩＥＣＥ 航海王']);
    expect(await titles('ワンピース')).toEqual(['ＯＮＥ·ＰＩＥＣＥ 航海王']);
    const refused = await admin('editor', 'POST', `/api/admin/books/${book.id}`, {
      version: saved.json().data.version,
      aliases: Array.from({ length: 11 }, (_, i) => `别名${i}`),
    });
    expect(refused.statusCode).toBe(400);
  });

  it('finds a title with one character wrong when nothing matches exactly, never below exact matches', async () => {
    expect(await titles('斗萝大陆')).toContain('斗罗大陆');
    expect(await titles('重生之都市仙')).toEqual(['重生之都市仙尊']);
    expect(await titles('重生之都是仙尊')).toEqual(['重生之都市仙尊']);
    // Two characters are too short for a typo; a word far from every title finds nothing.
    expect(await titles('斗萝')).toEqual([]);
    expect(await titles('完全不相干的词')).toEqual([]);
  });

  it('refuses an empty or over-long keyword with the spec messages', async () => {
    expect(await search('   ')).toMatchObject({ result: false, msg: '请输入搜索关键字' });
    expect(await search('一'.repeat(21))).toMatchObject({ result: false, msg: '搜索关键字最长不超过20个字' });
    expect((await search('一'.repeat(20))).result).toBe(true);
    expect((await suggest('一'.repeat(21))).msg).toBe('搜索关键字最长不超过20个字');
  });

  it('suggests up to 8 titles, with the initials, pinyin or alias that matched marked', async () => {
    const dldl = (await suggest('dldl')).data;
    expect(dldl.length).toBeLessThanOrEqual(8);
    const first = dldl.find((s: { title: string }) => s.title === '斗罗大陆');
    expect(first).toMatchObject({
      titleMarks: [{ start: 0, end: 4 }],
      reason: {
        kind: 'pinyin',
        text: 'dou luo da lu',
        marks: [
          { start: 0, end: 1 },
          { start: 4, end: 5 },
          { start: 8, end: 9 },
          { start: 11, end: 12 },
        ],
      },
    });
    const zhong = (await suggest('zhongsheng')).data[0];
    expect(zhong).toMatchObject({ title: '重生之都市仙尊', reason: { kind: 'pinyin' } });
    expect(zhong.reason.text.startsWith('zhong sheng')).toBe(true);
    const alias = (await suggest('海贼')).data[0];
    expect(alias).toMatchObject({ reason: { kind: 'alias', text: '海贼王', marks: [{ start: 0, end: 2 }] } });
    expect((await suggest('斗罗')).data.length).toBeLessThanOrEqual(8);
  });
});
