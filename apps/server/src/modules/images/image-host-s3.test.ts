// The image host on an S3 bucket (s3rver on loopback) shared by two servers: what one draws and resizes, the
// other serves from the bucket; grants are checked before the bucket is looked at; large variants stream.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../../test/s3-server.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { books, chapters } from '../../db/schema/index.ts';
import type { StoragePort } from '../storage/index.ts';
import { decryptCover } from './cover-crypto.ts';

describeDb('images on S3, two servers', () => {
  let s3: TestS3;
  let a: TestApp;
  let b: TestApp;
  const coverKey = randomBytes(32);
  const grantKey = randomBytes(32);

  beforeAll(async () => {
    s3 = await startS3();
    // Two servers on one bucket, with the keys every server of a site shares.
    const env = { ...s3.env, COVER_KEY: coverKey.toString('hex'), PAGE_GRANT_KEY: grantKey.toString('hex') };
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await s3?.close();
  });

  async function chapterPics(priced: boolean) {
    const [row] = await a.db
      .select({ pics: chapters.pics })
      .from(chapters)
      .innerJoin(books, eq(books.id, chapters.bookId))
      .where(priced ? sql`${chapters.price} > 0` : sql`${chapters.price} = 0`)
      .limit(1);
    if (!row) throw new Error('the demo library has no such chapter');
    return row.pics;
  }

  /** Records the storage calls a server makes, by function and key. */
  function spy(t: TestApp) {
    const port = t.app.ports.storage;
    const calls: string[] = [];
    for (const name of ['get', 'head', 'read', 'put'] as const) {
      const original = port[name] as (key: string, ...rest: unknown[]) => Promise<unknown>;
      (port as unknown as Record<string, unknown>)[name] = (key: string, ...rest: unknown[]) => {
        calls.push(`${name} ${key}`);
        return original(key, ...rest);
      };
    }
    return calls;
  }

  it('keeps the drawn original and the variant in the bucket; the second server serves it as it is', async () => {
    const [page = ''] = await chapterPics(false);
    const url = `/${page}_500_0.img`;
    const first = await a.app.inject(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await s3.keys()).toEqual(
      expect.arrayContaining([`originals/${page}`, `variants/500/${page}.webp`]),
    );
    // Nothing on this server's disk.
    expect(await readdir(a.config.imageRoot).catch(() => [])).toEqual([]);
    expect(await readdir(a.config.imageCacheDir).catch(() => [])).toEqual([]);

    const puts = s3.puts.length;
    const second = await b.app.inject(url);
    expect(second.statusCode).toBe(200);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    // Neither drawn nor resized again: server b wrote nothing.
    expect(s3.puts.length).toBe(puts);
    const conditional = await b.app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(conditional.statusCode).toBe(304);
    // Another width of the same page: resized from the original a drew, not drawn again.
    expect((await b.app.inject(`/${page}_200_0.img`)).statusCode).toBe(200);
    expect(s3.puts.slice(puts)).toEqual([`variants/200/${page}.webp`]);
  });

  it('answers covers as encrypted text of the variant in the bucket, on both servers; 204 for none', async () => {
    const url = '/covers/demo/2-v.png_200_0.img';
    const first = await a.app.inject(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/plain; charset=utf-8');
    const webp = decryptCover(first.payload, coverKey);
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 200 });
    expect(await s3.keys('variants/200/covers/')).toEqual(['variants/200/covers/demo/2-v.png.webp']);
    const second = await b.app.inject(url);
    expect(decryptCover(second.payload, coverKey).equals(webp)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    const none = await b.app.inject('/covers/demo/999999-v.png_200_0.img');
    expect(none.statusCode).toBe(204);
  });

  it('resizes once for concurrent first requests on one server', async () => {
    const [, page = ''] = await chapterPics(false);
    const url = `/${page}_1000_0.img`;
    const all = await Promise.all(Array.from({ length: 20 }, () => a.app.inject(url)));
    expect(new Set(all.map((r) => r.statusCode))).toEqual(new Set([200]));
    expect(new Set(all.map((r) => r.headers.etag)).size).toBe(1);
    expect(s3.puts.filter((k) => k === `variants/1000/${page}.webp`)).toHaveLength(1);
    expect(s3.puts.filter((k) => k === `originals/${page}`)).toHaveLength(1);
  });

  it('refuses a priced page without a good grant on the other server, with its variant in the bucket', async () => {
    const [page = ''] = await chapterPics(true);
    const granted = a.app.ports.images.grantPage(page);
    const first = await a.app.inject(`/${granted}_500_0.img`);
    expect(first.statusCode).toBe(200);
    expect(await s3.keys()).toContain(`variants/500/${page}.webp`);

    const calls = spy(b);
    const [, expiry] = granted.split('/');
    for (const url of [
      `/${page}_500_0.img`,
      `/g/${expiry}/${'A'.repeat(22)}/${page}_500_0.img`,
      `/g/${Math.floor(Date.now() / 1000) - 1}/${'A'.repeat(22)}/${page}_500_0.img`,
    ]) {
      const res = await b.app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
      expect(res.statusCode, url).toBe(403);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // Refused before the bucket was asked anything.
    expect(calls).toEqual([]);
    // The grant a handed out is good on b (one key for the site), served from the bucket.
    const puts = s3.puts.length;
    const good = await b.app.inject(`/${granted}_500_0.img`);
    expect(good.statusCode).toBe(200);
    expect(good.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(s3.puts.length).toBe(puts);
  });

  it('streams a large variant from the bucket with its length, never reading it whole', async () => {
    // Noise does not compress: a WebP of about a megabyte.
    const noise = await sharp(randomBytes(1000 * 1500 * 3), {
      raw: { width: 1000, height: 1500, channels: 3 },
    })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const path = 'ads/test/noise.png';
    await s3.put(`originals/${path}`, noise);
    const url = `/${path}_1000_0.img`;
    const made = await a.app.inject(url);
    expect(made.statusCode).toBe(200);
    // Larger than an answer kept in memory (512 KB).
    expect(made.rawPayload.length).toBeGreaterThan(512 * 1024);

    const calls = spy(b);
    for (let i = 0; i < 2; i++) {
      const res = await b.app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(made.rawPayload.length));
      expect(res.headers.etag).toBe(made.headers.etag);
      expect(res.rawPayload.equals(made.rawPayload)).toBe(true);
    }
    const key = `variants/1000/${path}.webp`;
    // Its size asked once, then a stream per answer; never read whole, never made again.
    expect(calls).toEqual([`head ${key}`, `get ${key}`, `get ${key}`]);
  });

  it('makes a variant again when it went away from the bucket', async () => {
    const [, , page = ''] = await chapterPics(false);
    const url = `/${page}_180_0.img`;
    const first = await a.app.inject(url);
    await s3.remove(`variants/180/${page}.webp`);
    const fresh = await b.app.inject(url);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(await s3.keys()).toContain(`variants/180/${page}.webp`);
  });

  it('is ready while the bucket answers', async () => {
    const res = await a.app.inject('/readyz');
    expect(res.json().data).toMatchObject({ images: 'ok' });
    const storage: StoragePort = a.app.ports.storage;
    await expect(storage.ready()).resolves.toBeUndefined();
  });
});
