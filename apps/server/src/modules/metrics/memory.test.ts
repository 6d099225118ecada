import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { dbKind, describeDb } from '../../../test/test-database.ts';

const TOKEN = 'metrics-token-for-the-memory-tests-0123456789';
const MB = 1024 * 1024;

/** Every sample of `name` in Prometheus text, by its `cache` label (or '' without one). */
function samples(text: string, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{cache="([^"]*)"\})? (\S+)$/.exec(line);
    if (m && m[1] === name) out[m[2] ?? ''] = Number(m[3]);
  }
  return out;
}

describeDb('memory: the bound and every cache by bytes in /metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Small bounds, so a test fills them: 1 MB of static answers and landing pages, 1 MB of images.
    t = await createTestApp({
      env: { METRICS_TOKEN: TOKEN, MEMORY_BOUND_MB: '900', STATIC_CACHE_MB: '1', IMAGE_MEMORY_CACHE_MB: '1' },
      staticCacheMs: 60_000,
    });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  const metrics = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('shows the stated bound, each cache with its limit, the array buffers and the embedded database', async () => {
    const text = await metrics();
    expect(samples(text, 'yueman_memory_bound_bytes')).toEqual({ '': 900 * MB });
    const limits = samples(text, 'yueman_memory_cache_limit_bytes');
    expect(limits).toMatchObject({
      static: 1 * MB - Math.floor(MB / 4),
      landing: Math.floor(MB / 4),
      images: 1 * MB,
      image_urls: expect.any(Number),
      free_pages: expect.any(Number),
    });
    const bytes = samples(text, 'yueman_memory_cache_bytes');
    expect(Object.keys(bytes).sort()).toEqual(Object.keys(limits).sort());
    expect(samples(text, 'yueman_memory_array_buffers_bytes')['']).toBeGreaterThan(0);
    const wasm = samples(text, 'yueman_memory_database_wasm_bytes')[''];
    // PGlite's WebAssembly memory is part of the process; PostgreSQL's memory is not.
    if (dbKind === 'pglite') expect(wasm).toBeGreaterThan(16 * MB);
    else expect(wasm).toBeUndefined();
  });

  it('keeps the static answers under their byte bound when asked for more than it holds', {
    timeout: 240_000,
  }, async () => {
    const limit = samples(await metrics(), 'yueman_memory_cache_limit_bytes').static as number;
    let served = 0;
    // List pages, new-book pages and book details, as browsers ask for them (plain and brotli).
    const urls: string[] = [];
    for (let book = 1; book <= 40; book++) urls.push(`/api/book/detail/${book}`);
    for (let page = 1; page <= 120; page++) {
      urls.push(`/api/book/query/all/0/${page}`, `/api/book/new/${page}`);
    }
    for (const [i, url] of urls.entries()) {
      // The plain answer (kept), then its brotli copy (made and kept beside it).
      const plain = await t.app.inject({ method: 'GET', url });
      if (plain.statusCode !== 200) continue;
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      served += plain.rawPayload.length + 2048 + (br.headers['content-encoding'] ? br.rawPayload.length : 0);
      if (i % 20 === 0) {
        const held = samples(await metrics(), 'yueman_memory_cache_bytes').static as number;
        expect(held).toBeLessThanOrEqual(limit);
      }
    }
    expect(samples(await metrics(), 'yueman_memory_cache_bytes').static).toBeLessThanOrEqual(limit);
    // More than the bound was asked for, and the cache is full to near its bound, not empty.
    expect(served).toBeGreaterThan(limit);
    expect(samples(await metrics(), 'yueman_memory_cache_bytes').static).toBeGreaterThan(limit / 2);
  });

  it('keeps the image answers under their byte bound when more images are read than it holds', {
    timeout: 240_000,
  }, async () => {
    const limit = samples(await metrics(), 'yueman_memory_cache_limit_bytes').images as number;
    const chapter = await t.app.inject({ method: 'GET', url: '/api/book/read_chapter?bookId=1&number=1' });
    const pics: string[] = chapter.json().data.bookPics;
    expect(pics.length).toBeGreaterThan(2);
    let served = 0;
    for (const width of [1000, 500, 200]) {
      for (const pic of pics) {
        const res = await t.app.inject({ method: 'GET', url: `/${pic}_${width}_0.img` });
        expect(res.statusCode).toBe(200);
        served += res.rawPayload.length;
        const held = samples(await metrics(), 'yueman_memory_cache_bytes').images as number;
        expect(held).toBeLessThanOrEqual(limit);
      }
      if (served > 2 * limit) break;
    }
    expect(served).toBeGreaterThan(limit);
    expect(samples(await metrics(), 'yueman_memory_cache_bytes').images).toBeGreaterThan(0);
  });
});
