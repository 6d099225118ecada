import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { decryptCover } from '../images/cover-crypto.ts';
import { runtimeConfigScript } from './web.routes.ts';

describeDb('web app, images and runtime config on one port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { IMAGE_BASE: 'https://img.example.com', COVER_KEY: 'ab'.repeat(32) } });
  });
  afterAll(() => t?.close());

  it('answers app routes with index.html carrying the runtime config', async () => {
    for (const url of ['/', '/home', '/book/3/catalog?title=x', '/user/purchase/pay']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain(
        runtimeConfigScript({
          staticApiBase: '',
          dynamicApiBase: '',
          imageBase: 'https://img.example.com',
          coverKey: 'ab'.repeat(32),
        }),
      );
    }
  });

  it('answers 404 in the envelope, not the app page, for /api itself and any unknown /api path', async () => {
    for (const url of ['/api/', '/api', '/api?x=1', '/api/nothing', '/api/book/nothing/here']) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type'], url).toContain('application/json');
        expect(res.json()).toEqual({ result: false, code: 404, msg: '接口不存在', data: null });
      }
    }
    // Pages whose names only begin like it are still the app's.
    expect((await t.app.inject({ url: '/apiary' })).headers['content-type']).toContain('text/html');
  });

  it('keeps a base URL from closing the inline script', () => {
    const script = runtimeConfigScript({
      staticApiBase: 'https://x</script><script>alert(1)',
      dynamicApiBase: '',
      imageBase: '',
      coverKey: '',
    });
    expect(script.match(/<\/script>/g)).toHaveLength(1);
  });

  it('answers a cover as text that decrypts to WebP with the configured key, and 204 for a missing one', async () => {
    const book = (await t.app.inject({ url: '/api/book/detail/1' })).json().data.book;
    const res = await t.app.inject({ url: `/${book.cover}_200_0.img` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const webp = decryptCover(res.body, Buffer.from('ab'.repeat(32), 'hex'));
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 200 });
    const missing = await t.app.inject({ url: '/covers/none/0-v.png_200_0.img' });
    expect(missing.statusCode).toBe(204);
  });

  it('refuses other widths and paths that leave the image root', async () => {
    const book = (await t.app.inject({ url: '/api/book/detail/1' })).json().data.book;
    expect((await t.app.inject({ url: `/${book.horiCover}_300_0.img` })).statusCode).toBe(400);
    const outside = await t.app.inject({ url: '/covers/..%2f..%2fcover-key.hex_200_0.img' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ result: false, code: 400 });
  });
});
