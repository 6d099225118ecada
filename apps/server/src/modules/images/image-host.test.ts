import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPageHeight } from '../../seed/demo-geometry.ts';
import { drawDemoImage } from '../../seed/drawings/index.ts';
import { fail } from '../../shared/envelope.ts';
import { createLocalStorage } from '../storage/index.ts';
import { decryptCover } from './cover-crypto.ts';
import { createImageHost, type ImageHostOptions } from './image-host.ts';
import { createPageGrants } from './page-grant.ts';

let dir: string;
const key = randomBytes(32);
const grants = createPageGrants(randomBytes(32));
const draws: string[] = [];
const warnings: string[] = [];

/** Draws a 300x450 picture for paths under drawn/, like the demo drawer does for its paths. */
async function draw(p: string): Promise<Buffer | null> {
  if (!p.startsWith('drawn/') && !p.startsWith('covers/drawn/')) return null;
  draws.push(p);
  return sharp({ create: { width: 300, height: 450, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();
}

function build(extra: Partial<ImageHostOptions> = {}) {
  const host = createImageHost({
    storage: createLocalStorage({
      originals: path.join(dir, 'root'),
      variants: path.join(dir, 'cache'),
      writesOriginals: true,
    }),
    coverKey: key,
    draw,
    log: { warn: (_obj, msg) => warnings.push(msg) },
    grants,
    // Pages under pages/priced/ stand for a priced chapter's; every other page for a free chapter's.
    isFreePage: async (p) => !p.startsWith('pages/priced/'),
    ...extra,
  });
  const app = Fastify();
  app.get('/*', async (request, reply) => {
    const parsed = host.parse(request.url);
    if (parsed === null) return reply.code(404).send(fail(404, 'not found'));
    if ('error' in parsed) return reply.code(400).send(fail(400, parsed.error));
    return host.handle(request, reply, parsed);
  });
  // Like @fastify/compress: an async onSend hook delays the write, which catches handlers that forget
  // to return the reply.
  app.addHook('onSend', async (_request, _reply, payload) => payload);
  return { host, app };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'images-'));
  await mkdir(path.join(dir, 'root/pages/t'), { recursive: true });
  await mkdir(path.join(dir, 'root/covers/t'), { recursive: true });
  await mkdir(path.join(dir, 'root/pages/priced'), { recursive: true });
  await writeFile(path.join(dir, 'root/pages/priced/p.png'), await png(400, 600));
  await writeFile(path.join(dir, 'root/pages/t/a.png'), await png(400, 600));
  await writeFile(path.join(dir, 'root/covers/t/c.png'), await png(600, 800));
  await writeFile(path.join(dir, 'root/pages/t/broken.png'), 'not a picture');
  await writeFile(path.join(dir, 'outside.png'), await png(10, 10));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('image host', () => {
  let host: ReturnType<typeof build>['host'];
  let app: FastifyInstance;
  beforeAll(() => {
    ({ host, app } = build());
  });

  it('answers WebP at exactly each allowed width, with immutable caching and a strong ETag', async () => {
    for (const width of [180, 200, 500, 1000]) {
      const res = await app.inject(`/pages/t/a.png_${width}_0.img`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width, height: Math.round((600 * width) / 400) });
    }
  });

  it('refuses other widths with the envelope', async () => {
    const res = await app.inject('/pages/t/a.png_300_0.img');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result: false,
      code: 400,
      msg: '图片宽度只能是 180、200、500 或 1000',
      data: null,
    });
  });

  it('refuses paths that leave the image root, sent raw over HTTP', async () => {
    const server = build().app;
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as AddressInfo;
    const get = (p: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: p }, (res) => {
            let body = '';
            res.on('data', (c) => {
              body += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    try {
      // The same plumbing answers a good path, so the 400s below come from the path checks.
      expect((await get('/pages%2Ft%2Fa.png_200_0.img')).status).toBe(200);
      for (const p of [
        '/../outside.png_200_0.img',
        '/pages/../../outside.png_200_0.img',
        '/%2e%2e/outside.png_200_0.img',
        '/..%2foutside.png_200_0.img',
        '/pages/t/..%2f..%2f..%2foutside.png_200_0.img',
        '/%252e%252e%252foutside.png_200_0.img',
        '//etc/passwd.png_200_0.img',
        `/${encodeURIComponent(path.join(dir, 'outside.png'))}_200_0.img`,
        '/pages%5c..%5c..%5coutside.png_200_0.img',
        '/a%00.png_200_0.img',
      ]) {
        const res = await get(p);
        expect(res.status, p).toBe(400);
        expect(JSON.parse(res.body), p).toMatchObject({ result: false, code: 400, data: null });
      }
    } finally {
      await server.close();
    }
  });

  it('answers 204 for a missing cover and 404 for any other missing image', async () => {
    const cover = await app.inject('/covers/none/1-v.png_200_0.img');
    expect(cover.statusCode).toBe(204);
    expect(cover.payload).toBe('');
    const page = await app.inject('/pages/none/1.png_200_0.img');
    expect(page.statusCode).toBe(404);
    expect(page.json()).toMatchObject({ result: false, code: 404, data: null });
  });

  it('answers a cover as encrypted text that decrypts to the WebP', async () => {
    const res = await app.inject('/covers/t/c.png_200_0.img');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const webp = decryptCover(res.payload, key);
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 200, height: 267 });
  });

  it('answers 304 when the ETag matches', async () => {
    const first = await app.inject('/pages/t/a.png_500_0.img');
    const etag = String(first.headers.etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await app.inject({ url: '/pages/t/a.png_500_0.img', headers: { 'if-none-match': header } });
      expect(res.statusCode, header).toBe(304);
      expect(res.payload).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    const other = await app.inject({
      url: '/pages/t/a.png_500_0.img',
      headers: { 'if-none-match': '"other"' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('resizes once for 100 concurrent first requests, then serves from cache', async () => {
    const before = host.stats.resizes;
    const url = '/drawn/x/1.png_500_0.img';
    const all = await Promise.all(Array.from({ length: 100 }, () => app.inject(url)));
    expect(host.stats.resizes - before).toBe(1);
    expect(draws.filter((d) => d === 'drawn/x/1.png')).toHaveLength(1);
    expect(new Set(all.map((r) => r.statusCode))).toEqual(new Set([200]));
    expect(new Set(all.map((r) => r.rawPayload.toString('base64'))).size).toBe(1);
    const again = await app.inject(url);
    expect(again.statusCode).toBe(200);
    expect(host.stats.resizes - before).toBe(1);
    // The drawing is kept as the source and the WebP on disk, so a fresh process neither draws nor resizes.
    expect(await readdir(path.join(dir, 'root/drawn/x'))).toEqual(['1.png']);
    expect(await readdir(path.join(dir, 'cache/500/drawn/x'))).toEqual(['1.png.webp']);
    const fresh = build();
    const res = await fresh.app.inject(url);
    expect(fresh.host.stats.resizes).toBe(0);
    expect(res.headers.etag).toBe(again.headers.etag);
    expect(res.rawPayload.equals(again.rawPayload)).toBe(true);
  });

  it('streams images too large to keep in memory, and remakes a deleted cache file', async () => {
    const big = build({ memoryItemBytes: 10 });
    const first = await big.app.inject('/pages/t/a.png_1000_0.img');
    const second = await big.app.inject('/pages/t/a.png_1000_0.img');
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-length']).toBe(String(first.rawPayload.length));
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    await rm(path.join(dir, 'cache/1000/pages/t/a.png.webp'));
    const third = await big.app.inject('/pages/t/a.png_1000_0.img');
    expect(third.statusCode).toBe(200);
    expect((await sharp(third.rawPayload).metadata()).width).toBe(1000);
  });

  it('serve() answers image URLs, resolving once written, and leaves other URLs to the route', async () => {
    const { host: streaming } = build({ memoryItemBytes: 10 });
    const site = Fastify();
    site.addHook('onSend', async (_request, _reply, payload) => payload);
    site.get('/*', async (request, reply) => {
      if (await streaming.serve(request, reply)) return;
      return reply.type('text/html').send('app');
    });
    const first = await site.inject('/pages/t/a.png_200_0.img');
    const streamed = await site.inject('/pages/t/a.png_200_0.img');
    expect(streamed.headers['content-length']).toBe(String(first.rawPayload.length));
    expect(streamed.rawPayload.equals(first.rawPayload)).toBe(true);
    expect((await site.inject('/bookshelf')).payload).toBe('app');
    expect((await site.inject('/pages/t/a.png_7_0.img')).json()).toMatchObject({ code: 400 });
    expect((await site.inject('/covers/none/1.png_200_0.img')).statusCode).toBe(204);
  });

  it('treats an unreadable source as missing and logs it', async () => {
    const res = await app.inject('/pages/t/broken.png_200_0.img');
    expect(res.statusCode).toBe(404);
    expect(warnings).toContain('could not resize an image');
  });

  it("serves the demo drawer's slices, each 800/n wide before the resize", async () => {
    const lookup = { bookTitle: (b: number) => (b === 5 ? '双页' : undefined), picSplitCount: () => 2 };
    const demo = build({ draw: (p) => drawDemoImage(p, lookup) });
    const res = await demo.app.inject('/pages/demo/5/1/2-2.png_200_0.img');
    expect(res.statusCode).toBe(200);
    const meta = await sharp(path.join(dir, 'root/pages/demo/5/1/2-2.png')).metadata();
    expect(meta).toMatchObject({ width: 400, height: demoPageHeight(5, 1, 2) });
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({
      width: 200,
      height: Math.round(demoPageHeight(5, 1, 2) / 2),
    });
    expect((await demo.app.inject('/pages/demo/6/1/2-2.png_200_0.img')).statusCode).toBe(404);
    expect((await demo.app.inject('/covers/demo/6-v.png_200_0.img')).statusCode).toBe(204);
  });
});

describe('priced pages', () => {
  const page = 'pages/priced/p.png';
  const granted = (width: number, grant = grants.grant(page)) => `/${grant}_${width}_0.img`;

  it('serves a granted page at every width, cacheable until the grant expires', async () => {
    const { app } = build();
    for (const width of [180, 200, 500, 1000]) {
      const res = await app.inject(granted(width));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      const maxAge = Number(/max-age=(\d+)/.exec(String(res.headers['cache-control']))?.[1]);
      expect(maxAge).toBeGreaterThan(6 * 3600 - 5);
      expect(maxAge).toBeLessThanOrEqual(12 * 3600);
      expect(res.headers['cache-control']).toMatch(/^public, /);
    }
  });

  it('refuses it without a grant, with a forged, altered or expired one, even once it is cached', async () => {
    const { app } = build();
    const good = grants.grant(page);
    // Fetched with a grant first: the answer is now in the memory cache and the resized file on disk.
    expect((await app.inject(granted(500, good))).statusCode).toBe(200);
    const [, expiry, mac = ''] = good.split('/');
    const other = createPageGrants(randomBytes(32)).grant(page);
    const past = Math.floor(Date.now() / 1000) - 1;
    const refused = [
      `/${page}_500_0.img`,
      `/g/${expiry}/${'A'.repeat(22)}/${page}_500_0.img`,
      `/${other}_500_0.img`,
      `/g/${Number(expiry) + 3600}/${mac}/${page}_500_0.img`,
      `/g/${expiry}/${mac}/pages/t/a.png_500_0.img`.replace('pages/t/a.png', 'pages/priced/q.png'),
      `/g/${past}/${mac}/${page}_500_0.img`,
      `/${createPageGrants(key).grant(page, Date.now() - 13 * 3600 * 1000)}_500_0.img`,
      `/g/${expiry}/${mac.slice(1)}/${page}_500_0.img`,
    ];
    for (const url of refused) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ result: false, code: 403 });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // A conditional request without a grant learns nothing either.
    const etag = (await app.inject(granted(500, good))).headers.etag as string;
    const conditional = await app.inject({ url: `/${page}_500_0.img`, headers: { 'if-none-match': etag } });
    expect(conditional.statusCode).toBe(403);
    // A fresh host (an empty memory cache, the resized file on disk) refuses as well.
    expect((await build().app.inject(`/${page}_500_0.img`)).statusCode).toBe(403);
  });

  it('refuses every page the database does not call free, and any grant when it has no key', async () => {
    const denyAll = build({ isFreePage: undefined });
    expect((await denyAll.app.inject('/pages/t/a.png_200_0.img')).statusCode).toBe(403);
    const noKeys = build({ grants: undefined });
    expect((await noKeys.app.inject(granted(200))).statusCode).toBe(403);
    // Covers, thumbnails and ads need no grant.
    expect((await denyAll.app.inject('/covers/t/c.png_200_0.img')).statusCode).toBe(200);
  });
});
