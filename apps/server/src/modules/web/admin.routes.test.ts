import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';

describeDb('the operators console at /admin/', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'yueman-admin-dist-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(
      path.join(dist, 'index.html'),
      '<!doctype html><title>阅漫管理后台</title><div id="root"></div>',
    );
    await writeFile(path.join(dist, 'assets/index-abc123.js'), 'console.log(1)');
    t = await createTestApp({ seed: false, env: { ADMIN_DIST: dist } });
  });
  afterAll(() => t?.close());

  it('answers its index for every console route, with a policy that runs only its own scripts', async () => {
    for (const url of ['/admin/', '/admin/books', '/admin/books/3', '/admin/login?next=%2Fadmin%2Faudit']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('阅漫管理后台');
      expect(res.headers['cache-control']).toBe('no-cache');
      const policy = String(res.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self';");
      expect(policy).not.toMatch(/script-src[^;]*unsafe/);
      expect(policy).toContain("frame-ancestors 'none'");
    }
  });

  it('sends /admin to /admin/, where the relative asset addresses work', async () => {
    const bare = await t.app.inject({ url: '/admin?x=1' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/admin/?x=1');
  });

  it('serves its hashed assets for a year, and none of the readers app', async () => {
    const js = await t.app.inject({ url: '/admin/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log(1)');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const reader = await t.app.inject({ url: '/' });
    expect(reader.body).not.toContain('阅漫管理后台');
  });
});
