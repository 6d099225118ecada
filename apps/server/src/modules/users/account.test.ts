import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { infoStatus, login, post, registerVisitor } from '../../../test/visitors.ts';
import { users } from '../../db/schema/index.ts';

describeDb('bind a mobile number', () => {
  let t: TestApp;
  const bind = (query: Record<string, string>, cookie?: string) =>
    post(t, '/api/user/bind_mobile', query, { cookie });

  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '10000' } });
  });
  afterAll(() => t?.close());

  it('needs a session, whatever the number', async () => {
    for (const mobile of ['13800138000', 'abc']) {
      const res = await bind({ mobile });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ result: false, code: 401 });
    }
  });

  it('checks the number with the screen’s messages', async () => {
    const { cookie } = await registerVisitor(t);
    const cases: [Record<string, string>, string][] = [
      [{}, '请输入手机号'],
      [{ mobile: '' }, '请输入手机号'],
      [{ mobile: '1380013800' }, '请输入正确的手机号'],
      [{ mobile: '138001380000' }, '请输入正确的手机号'],
      [{ mobile: '23800138000' }, '请输入正确的手机号'],
      [{ mobile: '1380013800a' }, '请输入正确的手机号'],
    ];
    for (const [query, msg] of cases) {
      const res = await bind(query, cookie);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json()).toMatchObject({ result: false, code: 400, msg });
    }
  });

  it('binds, shows the number in user info, and accepts the same number again', async () => {
    const a = await registerVisitor(t);
    const res = await bind({ mobile: '13800138010' }, a.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: true, msg: '手机绑定成功', data: { mobile: '13800138010' } });
    const info = await t.app.inject({ url: '/api/user/info', headers: { cookie: a.cookie } });
    expect(info.json().data.mobile).toBe('13800138010');
    expect((await bind({ mobile: '13800138010' }, a.cookie)).json()).toMatchObject({ result: true });
    // A new number replaces the old one.
    expect((await bind({ mobile: '13800138011' }, a.cookie)).json().data.mobile).toBe('13800138011');
  });

  it('refuses a number bound to another account', async () => {
    const a = await registerVisitor(t);
    const b = await registerVisitor(t);
    await bind({ mobile: '13800138020' }, a.cookie);
    const res = await bind({ mobile: '13800138020' }, b.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: false, code: 103, msg: '该手机号已绑定其他账号', data: null });
    const [row] = await t.db.select().from(users).where(eq(users.id, b.userId));
    expect(row?.mobile).toBeNull();
  });

  it('checks a password when one is sent', async () => {
    const a = await registerVisitor(t);
    const wrong = await bind({ mobile: '13800138030', password: 'not-mine' }, a.cookie);
    expect(wrong.json()).toEqual({ result: false, code: 102, msg: '账户或密码不正确', data: null });
    const [row] = await t.db.select().from(users).where(eq(users.id, a.userId));
    expect(row?.mobile).toBeNull();
    const right = await bind({ mobile: '13800138030', password: a.password }, a.cookie);
    expect(right.json()).toMatchObject({ result: true, data: { mobile: '13800138030' } });
  });
});

describeDb('change the password', () => {
  let t: TestApp;
  const modify = (query: Record<string, string>, cookie?: string) =>
    post(t, '/api/user/modifyPwd', query, { cookie });

  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '10000' } });
  });
  afterAll(() => t?.close());

  it('needs a session and a password', async () => {
    expect((await modify({ password: 'secret' })).statusCode).toBe(401);
    const { cookie } = await registerVisitor(t);
    const queries: Record<string, string>[] = [{}, { password: '' }, { password: '   ' }];
    for (const query of queries) {
      const res = await modify(query, cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ result: false, code: 400, msg: '请输入密码' });
    }
    expect((await modify({ password: 'x'.repeat(129) }, cookie)).statusCode).toBe(400);
  });

  it('stores an argon2id hash, signs out every other session and keeps the current one', async () => {
    const a = await registerVisitor(t);
    const second = sessionCookie(await login(t, a.account, a.password));
    const third = sessionCookie(await login(t, a.account, a.password));
    const bystander = await registerVisitor(t);

    const newPassword = '新密码 with spaces & symbols!';
    const res = await modify({ password: newPassword }, second);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: true, code: 200, msg: '密码修改成功', data: null });

    expect(await infoStatus(t, second)).toBe(200);
    expect(await infoStatus(t, a.cookie)).toBe(401);
    expect(await infoStatus(t, third)).toBe(401);
    expect(await infoStatus(t, bystander.cookie)).toBe(200);

    const [row] = await t.db.select().from(users).where(eq(users.id, a.userId));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain(newPassword);
    expect((await login(t, a.account, a.password)).json().result).toBe(false);
    expect((await login(t, a.account, newPassword)).json()).toMatchObject({ result: true });
    expect((await modify({ password: 'y'.repeat(128) }, second)).json().result).toBe(true);
  });
});

describeDb('account calls with a form body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '10000' } });
  });
  afterAll(() => t?.close());

  const form = (url: string, fields: Record<string, string>, cookie?: string, query = '') =>
    t.app.inject({
      method: 'POST',
      url: `${url}${query}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: new URLSearchParams(fields).toString(),
    });

  it('take login, bind_mobile and modifyPwd fields from the body, which wins over the query', async () => {
    const a = await registerVisitor(t);
    const loggedIn = await form(
      '/api/user/login',
      { account: a.account, password: a.password },
      undefined,
      '?password=wrong',
    );
    expect(loggedIn.json()).toMatchObject({ result: true, data: { account: a.account } });
    const cookie = sessionCookie(loggedIn);

    const bound = await form(
      '/api/user/bind_mobile',
      { mobile: '13700137000', password: a.password },
      cookie,
    );
    expect(bound.json()).toMatchObject({ result: true, data: { mobile: '13700137000' } });
    expect((await form('/api/user/bind_mobile', { mobile: '123' }, cookie)).json()).toMatchObject({
      code: 400,
      msg: '请输入正确的手机号',
    });

    expect(
      (await form('/api/user/modifyPwd', { password: 'form-body-password' }, cookie)).json().result,
    ).toBe(true);
    expect((await login(t, a.account, 'form-body-password')).json().result).toBe(true);
    expect((await form('/api/user/login', { account: a.account, password: '' })).json()).toMatchObject({
      code: 400,
      msg: '请输入密码',
    });
  });
});
