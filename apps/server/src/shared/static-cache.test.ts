import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { describeDb } from '../../test/test-database.ts';

describeDb('kept static answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ staticCacheMs: 60_000 });
  });
  afterAll(() => t?.close());

  it('answers from the kept copy until it expires, with the same ETag and 304', async () => {
    const first = await t.app.inject({ url: '/api/book/detail/4' });
    await t.db.execute(sql`update books set title = '改过的书名' where id = 4`);
    const second = await t.app.inject({ url: '/api/book/detail/4' });
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    const revalidated = await t.app.inject({
      url: '/api/book/detail/4',
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('sends the first answer compressed exactly as the kept copies after it (one set of bytes per URL)', async () => {
    const fresh = await createTestApp({ staticCacheMs: 60_000 });
    try {
      const ask = () =>
        fresh.app.inject({ url: '/api/book/detail/5', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      const first = await ask();
      const kept = await ask();
      expect(first.headers['content-encoding']).toBe('br');
      expect(kept.headers['content-encoding']).toBe('br');
      expect(first.rawPayload.equals(kept.rawPayload)).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('sends br and gzip copies of large answers that decode to the same JSON', async () => {
    const plain = await t.app.inject({ url: '/api/book/home/index' });
    const br = await t.app.inject({
      url: '/api/book/home/index',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await t.app.inject({ url: '/api/book/home/index', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('keeps answers per method and never keeps failures', async () => {
    await t.app.inject({ url: '/api/book/category' });
    expect((await t.app.inject({ method: 'POST', url: '/api/book/category' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/book/detail/999999' })).statusCode).toBe(404);
    await t.db.execute(sql`insert into books (id, title, author, cover, hori_cover, category_id, publish_status)
      values (999999, '新书', '作者', 'covers/x-v.png', 'covers/x-h.png', 1, 'serialize')`);
    expect((await t.app.inject({ url: '/api/book/detail/999999' })).statusCode).toBe(200);
  });
});
