import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manifestOnBranch, workerPolicy } from './web.routes.ts';

const MANIFEST = {
  name: '阅漫',
  id: '/home',
  start_url: '/home',
  scope: '/',
  display: 'standalone',
  icons: [{ src: '/icon-192.png', sizes: '192x192', type: 'image/png' }],
};

const BIG = `export const pages = [${Array.from({ length: 400 }, (_, i) => `'page ${i}'`).join(', ')}];\n`;
// The copies as the build might make them; their exact bytes tell them from what the server would compress itself.
const BIG_BR = brotliCompressSync(BIG);
const BIG_GZ = gzipSync(BIG, { level: 1 });

describeDb('the service worker and the manifest (offline re-reading, installing)', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'yueman-web-dist-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><head><title>阅漫</title></head>');
    await writeFile(path.join(dist, 'sw.js'), 'self.skipWaiting()');
    await writeFile(path.join(dist, 'manifest.webmanifest'), JSON.stringify(MANIFEST));
    await writeFile(path.join(dist, 'icon-192.png'), 'png');
    await writeFile(path.join(dist, 'assets/index-abc123.js'), 'console.log(1)');
    // A script with the build's compressed copies (apps/web/vite.config.ts), and one without.
    await writeFile(path.join(dist, 'assets/big-abc123.js'), BIG);
    await writeFile(path.join(dist, 'assets/big-abc123.js.br'), BIG_BR);
    await writeFile(path.join(dist, 'assets/big-abc123.js.gz'), BIG_GZ);
    await writeFile(path.join(dist, 'assets/plain-abc123.js'), BIG);
    t = await createTestApp({
      seed: false,
      env: {
        WEB_DIST: dist,
        IMAGE_BASE: 'https://img.example.com',
        STATIC_API_BASE: 'https://s.example.com/x',
      },
    });
  });
  afterAll(() => t?.close());

  it('serves sw.js never to be kept by a cache, under a policy that lets it fetch from the bases', async () => {
    const res = await t.app.inject({ url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('self.skipWaiting()');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; connect-src 'self' https://s.example.com https://img.example.com",
    );
    // Other built files keep theirs.
    expect((await t.app.inject({ url: '/icon-192.png' })).headers['cache-control']).toBe(
      'public, max-age=3600',
    );
    expect((await t.app.inject({ url: '/assets/index-abc123.js' })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
  });

  it("sends the build's compressed copy of a script as it is, in the encoding the browser takes", async () => {
    const ask = (url: string, encoding?: string) =>
      t.app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await ask('/assets/big-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.equals(BIG_BR)).toBe(true);
    const gz = await ask('/assets/big-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(BIG_GZ)).toBe(true);
    const plain = await ask('/assets/big-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
    // A file without copies is still compressed on the way out. A copy is no address of its own: the app's page answers.
    const made = await ask('/assets/plain-abc123.js', 'br');
    expect(made.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(made.rawPayload).toString()).toBe(BIG);
    expect(made.rawPayload.equals(BIG_BR)).toBe(false);
    const copy = await ask('/assets/big-abc123.js.br');
    expect(copy.headers['content-type']).toContain('text/html');
    expect(copy.rawPayload.equals(BIG_BR)).toBe(false);
  });

  it('answers the manifest, with the branch in its start address when asked with one', async () => {
    const plain = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.json()).toEqual(MANIFEST);
    const branch = await t.app.inject({ url: '/manifest.webmanifest?tgId=17' });
    expect(branch.json()).toEqual({ ...MANIFEST, start_url: '/home?tgId=17' });
    for (const bad of ['x', '1.5', '99999999999', '', '1&tgId=2']) {
      const res = await t.app.inject({ url: `/manifest.webmanifest?tgId=${bad}` });
      expect(res.json().start_url, bad).toBe('/home');
    }
    // A NUL byte is refused before any route, as everywhere.
    expect((await t.app.inject({ url: '/manifest.webmanifest?tgId=1%00' })).statusCode).toBe(400);
  });

  it('keeps the manifest’s id and other fields, and a start address’s own query', () => {
    expect(manifestOnBranch({ ...MANIFEST, start_url: '/home?a=1' }, '-2')).toMatchObject({
      id: '/home',
      start_url: '/home?a=1&tgId=-2',
    });
    expect(workerPolicy({ staticApiBase: '', dynamicApiBase: '', imageBase: '' })).toBe(
      "default-src 'none'; connect-src 'self'",
    );
  });
});
