import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { books } from '../../db/schema/index.ts';
import { firstDataScript, landingCall } from './first-data.ts';

/** The data block of a page, parsed, or null when the page has none. */
const blockOf = (html: string) => {
  const m = /<script type="application\/json" id="ym-first-data">(.*?)<\/script>/s.exec(html);
  return m ? (JSON.parse(m[1] as string) as { path: string; body: unknown }) : null;
};

describeDb('landing pages carry their first call', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** Each page answers 200, the plain page with no data block. */
  const expectNoBlock = async (pages: string[]) => {
    for (const page of pages) {
      const res = await t.app.inject({ url: page });
      expect(res.statusCode, page).toBe(200);
      expect(blockOf(res.body), page).toBeNull();
    }
  };

  it('writes the answer of home and of a book into their page, exactly as the call answers', async () => {
    for (const [page, call] of [
      ['/home', '/api/book/home/index'],
      ['/home?tgId=7', '/api/book/home/index'],
      ['/book/1', '/api/book/detail/1'],
    ] as const) {
      const res = await t.app.inject({ url: page });
      expect(res.statusCode, page).toBe(200);
      const block = blockOf(res.body);
      expect(block?.path, page).toBe(call);
      expect(block?.body, page).toEqual((await t.app.inject({ url: call })).json());
    }
  });

  it('writes a free chapter into the reader’s page as read_chapter answers anyone, without counting a read', async () => {
    const readCount = async () =>
      (await t.db.select({ n: books.readCount }).from(books).where(eq(books.id, 1)))[0]?.n ?? -1;
    const before = await readCount();
    const res = await t.app.inject({ url: '/book/read/1/2?title=x' });
    const block = blockOf(res.body);
    expect(block?.path).toBe('/api/book/read_chapter?bookId=1&number=2');
    expect(await readCount()).toBe(before);
    // The call itself (a visitor with no session: a free chapter opens for anyone) answers the same, and counts.
    const call = (await t.app.inject({ url: '/api/book/read_chapter?bookId=1&number=2' })).json();
    expect(call.result).toBe(true);
    expect(call.data.bookPics.length).toBeGreaterThan(0);
    expect(block?.body).toEqual(call);
    expect(await readCount()).toBe(before + 1);
  });

  it('writes nothing for a priced chapter, a chapter or book that is not there, or an unpublished book', async () => {
    const detail = (await t.app.inject({ url: '/api/book/detail/3' })).json().data;
    const priced = detail.chapterList.find((c: { price: number }) => c.price > 0);
    expect(priced).toBeDefined();
    await t.db.execute(sql`update books set published = false where id = 2`);
    try {
      await expectNoBlock([
        `/book/read/3/${priced.number}`,
        '/book/read/1/9999',
        '/book/read/999999/1',
        '/book/read/2/1',
      ]);
    } finally {
      await t.db.execute(sql`update books set published = true where id = 2`);
    }
  });

  it('writes nothing for an unknown book or any other screen', async () => {
    await expectNoBlock([
      '/book/999999',
      '/book/0',
      '/book/1/catalog',
      '/book/read/0/1',
      '/book/read/1/1/x',
      '/user',
      '/category',
    ]);
  });

  it('sends the larger page compressed, with the same policy as every page', async () => {
    const plain = await t.app.inject({ url: '/home' });
    const br = await t.app.inject({ url: '/home', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await t.app.inject({ url: '/home', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    const other = await t.app.inject({ url: '/user' });
    expect(br.headers['content-security-policy']).toBe(other.headers['content-security-policy']);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(br.headers.vary).toBe('Accept-Encoding');
  });

  it('keeps anything in the data from closing its block', () => {
    const body = JSON.stringify({ result: true, data: { title: '</script><script>alert(1)</script><!--' } });
    const script = firstDataScript('/api/book/detail/1', body);
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(script).not.toContain('<!--');
    expect(blockOf(script)?.body).toEqual(JSON.parse(body));
  });

  it('knows only the landing screens: home, a book, a chapter', () => {
    expect(landingCall('/home')).toBe('/api/book/home/index');
    expect(landingCall('/book/12')).toBe('/api/book/detail/12');
    expect(landingCall('/book/read/12/3')).toBe('/api/book/read_chapter?bookId=12&number=3');
    for (const other of [
      '/home/kkbg',
      '/book/012',
      '/book/1/catalog',
      '/book/-1',
      '/',
      '/book/99999999999',
    ]) {
      expect(landingCall(other), other).toBeNull();
    }
  });
});
