// Protective headers on every kind of answer: the app's page, API calls (made now, and kept static answers), images
// and the sandbox cashier.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { describeDb } from './test-database.ts';

const START_SCRIPT = 'window.started = 1;';
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describeDb('protective headers', () => {
  let t: TestApp;
  let webDist: string;
  let base: string;
  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'yueman-web-'));
    await writeFile(
      path.join(webDist, 'index.html'),
      `<!doctype html><html><head><script>${START_SCRIPT}</script></head><body></body></html>`,
    );
    t = await createTestApp({
      staticCacheMs: 60_000,
      env: {
        WEB_DIST: webDist,
        PUBLIC_ORIGIN: 'https://m.example.com',
        DYNAMIC_API_BASE: 'https://api.example.com',
        IMAGE_BASE: 'https://img.example-cdn.com',
        SANDBOX_PAY: 'true',
      },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const common = (headers: Headers) => {
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  };

  it("lets the app's page run exactly its own inline scripts and frame only the cashier's origin", async () => {
    const res = await fetch(`${base}/home`);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    common(res.headers);
    const config = /<script>(window\.__APP_CONFIG__[^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(config).not.toBe('');
    expect(csp).toContain(`script-src 'self' ${sha(config)} ${sha(START_SCRIPT)}`);
    expect(csp).not.toContain("'unsafe-inline' ;");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("frame-src 'self' https://api.example.com");
    expect(csp).toContain("img-src 'self' data: blob: https://img.example-cdn.com");
    expect(csp).toContain("connect-src 'self' https://api.example.com https://img.example-cdn.com");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
  });

  it('gives API answers, kept static answers and images a policy that loads nothing', async () => {
    for (const url of [
      '/api/user/info',
      '/api/book/category',
      '/api/book/category',
      '/chapters/demo/1/1.png_180_0.img',
    ]) {
      const res = await fetch(`${base}${url}`);
      common(res.headers);
      expect(res.headers.get('content-security-policy'), url).toContain("default-src 'none'");
      expect(res.headers.get('content-security-policy'), url).toContain("frame-ancestors 'none'");
    }
  });

  it('lets our pages frame the sandbox cashier, and its forms lead back only to us', async () => {
    const res = await fetch(`${base}/sandbox-pay/cashier/SBUNKNOWN`);
    expect(res.status).toBe(404);
    common(res.headers);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self' https://m.example.com https://api.example.com");
    expect(csp).toContain("form-action 'self' https://m.example.com");
    expect(res.headers.get('x-frame-options')).toBeNull();
  });
});
