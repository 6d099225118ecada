// Requests from other sites change nothing (docs/api.md section 2): Origin, or Referer without it, must be ours.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { describeDb } from './test-database.ts';
import { login, post, registerVisitor } from './visitors.ts';

describeDb('requests from other sites', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      env: {
        REGISTER_PER_HOUR: '1000',
        PUBLIC_ORIGIN: 'https://m.example.com',
        ALLOWED_ORIGINS: 'https://app.example.net',
      },
    });
  });
  afterAll(() => t?.close());

  it('are refused with 403 and change nothing, even carrying the reader’s cookie', async () => {
    const reader = await registerVisitor(t);
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'https://m.example.com.evil.example' },
      { referer: 'https://evil.example/page' },
      { referer: 'not a url' },
    ];
    for (const headers of foreign) {
      const res = await post(
        t,
        '/api/user/modifyPwd',
        { password: 'taken-over-1' },
        { cookie: reader.cookie, headers },
      );
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ result: false, code: 403 });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const bind = await post(
        t,
        '/api/user/bind_mobile',
        { mobile: '13600136000' },
        { cookie: reader.cookie, headers },
      );
      expect(bind.statusCode).toBe(403);
      // Logging a visitor into someone else's account from another site is refused too.
      expect((await login(t, reader.account, reader.password, { headers })).statusCode).toBe(403);
    }
    expect((await login(t, reader.account, 'taken-over-1')).json().result).toBe(false);
    expect((await login(t, reader.account, reader.password)).json().result).toBe(true);
    const info = await t.app.inject({ url: '/api/user/info', headers: { cookie: reader.cookie } });
    expect(info.json().data.mobile).toBe('');
  });

  it('lets our own pages, the origins the operator allows, and callers without either header through', async () => {
    const reader = await registerVisitor(t);
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://m.example.com' },
      { origin: 'https://app.example.net' },
      { referer: 'https://m.example.com/user/password' },
      {},
    ]) {
      const res = await post(
        t,
        '/api/user/modifyPwd',
        { password: 'mine-1234' },
        { cookie: reader.cookie, headers },
      );
      expect(res.json().result, JSON.stringify(headers)).toBe(true);
    }
    // Reads are never refused: a foreign page may link to ours.
    const read = await t.app.inject({
      url: '/api/user/info',
      headers: { cookie: reader.cookie, origin: 'https://evil.example' },
    });
    expect(read.statusCode).toBe(200);
  });
});
