// The paywall end to end: read_chapter hands out granted page paths only to readers who may read a priced
// chapter, and the image host serves a priced page only through such a path (docs/api.md section 5).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { books, chapters } from '../../db/schema/index.ts';

describeDb('priced pages', () => {
  let t: TestApp;
  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '1000' } });
  });
  afterAll(() => t?.close());

  async function pricedChapter() {
    const [row] = await t.db
      .select({ bookId: chapters.bookId, number: chapters.number, pics: chapters.pics })
      .from(chapters)
      .innerJoin(books, eq(books.id, chapters.bookId))
      .where(sql`${chapters.price} > 0 and ${books.vipFree}`)
      .limit(1);
    if (!row) throw new Error('the demo library has no priced chapter in a VIP-free book');
    return row;
  }

  async function vipReader() {
    const registered = await t.app.inject({ method: 'POST', url: '/api/user/register' });
    const userId = registered.json().data.userId;
    await t.db.execute(sql`update users set vip_end = now() + interval '30 days' where id = ${userId}`);
    return sessionCookie(registered);
  }

  it('answers the demo page path of a priced chapter 403 to anyone, at every width', async () => {
    const { pics } = await pricedChapter();
    for (const width of [180, 200, 500, 1000]) {
      const res = await get(`/${pics[0]}_${width}_0.img`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ result: false, code: 403 });
    }
  });

  it('hands a reader who may read it granted paths that load, and the plain path still answers 403', async () => {
    const chapter = await pricedChapter();
    const cookie = await vipReader();
    const read = (
      await get(`/api/book/read_chapter?bookId=${chapter.bookId}&number=${chapter.number}`, cookie)
    ).json();
    expect(read.result).toBe(true);
    expect(read.data.bookPics).toHaveLength(chapter.pics.length);
    read.data.bookPics.forEach((granted: string, i: number) => {
      expect(granted).toMatch(/^g\/\d+\/[A-Za-z0-9_-]{22}\//);
      expect(granted.endsWith(`/${chapter.pics[i]}`)).toBe(true);
    });
    expect(read.data.bookPicSizes[0].width).toBeGreaterThan(0);

    const granted = await get(`/${read.data.bookPics[0]}_500_0.img`);
    expect(granted.statusCode).toBe(200);
    expect(granted.headers['content-type']).toBe('image/webp');
    // Now drawn, resized and cached in memory and on disk: still no page without the grant, session or not.
    expect((await get(`/${chapter.pics[0]}_500_0.img`)).statusCode).toBe(403);
    expect((await get(`/${chapter.pics[0]}_500_0.img`, cookie)).statusCode).toBe(403);
    // A grant is for its own page only.
    const other = read.data.bookPics[0].replace(chapter.pics[0], chapter.pics[1]);
    expect((await get(`/${other}_500_0.img`)).statusCode).toBe(403);
  });

  it('gives free chapters plain paths that load without a grant', async () => {
    const read = (await get('/api/book/read_chapter?bookId=3&number=1')).json();
    expect(read.data.price).toBe(0);
    expect(read.data.bookPics[0]).toMatch(/^pages\//);
    expect((await get(`/${read.data.bookPics[0]}_200_0.img`)).statusCode).toBe(200);
  });

  it('draws only the demo images the database has, and keeps nothing for made-up ones', async () => {
    const { bookId } = await pricedChapter();
    const made = [
      `/pages/demo/${bookId}/999/1.png_200_0.img`,
      `/pages/demo/${bookId}/1/999999999.png_200_0.img`,
      '/chapters/demo/1/999999.png_200_0.img',
      '/ads/demo/77777.png_200_0.img',
    ];
    for (const url of made) expect([403, 404]).toContain((await get(url)).statusCode);
    // Thumbnails and ads need no grant, so these reached the drawer: it drew nothing and wrote nothing.
    expect((await get('/chapters/demo/1/999999.png_200_0.img')).statusCode).toBe(404);
    const written = await readdir(t.config.imageRoot, { recursive: true }).catch(() => []);
    expect(written.filter((f) => /999999|77777/.test(String(f)))).toEqual([]);
  });
});

describeDb('without the demo library', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEMO_LIBRARY: 'false' } });
  });
  afterAll(() => t?.close());

  it('draws no demo picture, even one the database knows', async () => {
    const read = (await t.app.inject('/api/book/read_chapter?bookId=3&number=1')).json();
    const res = await t.app.inject(`/${read.data.bookPics[0]}_200_0.img`);
    expect(res.statusCode).toBe(404);
    const cover = await t.app.inject('/covers/demo/3-v.png_200_0.img');
    expect(cover.statusCode).toBe(204);
    expect(await readdir(path.join(t.config.imageRoot)).catch(() => [])).toEqual([]);
  });
});
