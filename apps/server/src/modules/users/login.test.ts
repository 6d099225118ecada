import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { infoStatus, login, post, registerVisitor } from '../../../test/visitors.ts';
import { sessions } from '../../db/schema/index.ts';
import { hashToken } from './sessions.ts';

const WRONG = { result: false, code: 102, msg: '账户或密码不正确', data: null };

describeDb('login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '10000' } });
  });
  afterAll(() => t?.close());

  it('logs in by account name, with a new session that replaces the request’s old one', async () => {
    const a = await registerVisitor(t);
    const b = await registerVisitor(t);
    const res = await login(t, a.account, a.password, { cookie: b.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: true, code: 200, data: { userId: a.userId, password: '' } });

    const cookie = sessionCookie(res);
    expect(cookie).not.toBe(b.cookie);
    expect(cookie).not.toBe(a.cookie);
    expect(res.cookies.find((c) => c.name === 'sid')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const info = await t.app.inject({ url: '/api/user/info', headers: { cookie } });
    expect(info.json().data.userId).toBe(a.userId);
    // The request's old session (b's) is gone from the database; a's own other session is untouched.
    const bToken = b.cookie.slice('sid='.length);
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(bToken))),
    ).toEqual([]);
    expect(await infoStatus(t, b.cookie)).toBe(401);
    expect(await infoStatus(t, a.cookie)).toBe(200);
  });

  it('logs in by bound mobile number', async () => {
    const a = await registerVisitor(t);
    await post(t, '/api/user/bind_mobile', { mobile: '13800138001' }, { cookie: a.cookie });
    const res = await login(t, '13800138001', a.password);
    expect(res.json()).toMatchObject({ result: true, data: { userId: a.userId, mobile: '13800138001' } });
  });

  it('answers a wrong password and an unknown account alike, with the spec’s message and no session', async () => {
    const a = await registerVisitor(t);
    const wrong = await login(t, a.account, `${a.password}x`, { ip: '10.1.0.1' });
    const unknown = await login(t, 'yd00000000', a.password, { ip: '10.1.0.1' });
    const unknownMobile = await login(t, '13900000000', a.password, { ip: '10.1.0.1' });
    for (const res of [wrong, unknown, unknownMobile]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(WRONG);
      expect(res.cookies).toEqual([]);
    }
  });

  it('asks for the account and the password when either is empty', async () => {
    const noAccount = await login(t, ' ', 'secret');
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json()).toMatchObject({ result: false, code: 400, msg: '请输入手机号' });
    const noPassword = await post(t, '/api/user/login', { account: 'yd12345678' });
    expect(noPassword.json()).toMatchObject({ code: 400, msg: '请输入密码' });
  });

  it('spends an argon2 verification on an unknown account too (no timing oracle on account existence)', async () => {
    const a = await registerVisitor(t);
    // The fastest of several tries, taken in turns: other work on a busy machine only ever adds time, so the
    // minimum is each call's own cost, and alternating spreads any slow spell over both kinds alike.
    const fastest = { known: Number.POSITIVE_INFINITY, unknown: Number.POSITIVE_INFINITY };
    for (let i = 0; i < 7; i++) {
      for (const [kind, account] of [
        ['known', a.account],
        ['unknown', 'yd00000001'],
      ] as const) {
        const start = performance.now();
        await login(t, account, 'not-the-password', { ip: `10.2.0.${i + 1}` });
        fastest[kind] = Math.min(fastest[kind], performance.now() - start);
      }
    }
    // Without the dummy hash an unknown account answers in a database lookup, about 20 times faster.
    expect(fastest.unknown / fastest.known).toBeGreaterThan(0.4);
  });

  it('limits failures per account and address: the 11th from one address answers 429, whatever X-Forwarded-For says', async () => {
    const a = await registerVisitor(t);
    await post(t, '/api/user/bind_mobile', { mobile: '13800138002' }, { cookie: a.cookie });
    const stranger = '10.3.0.1';
    for (let i = 0; i < 10; i++) {
      const res = await login(t, a.account, `guess-${i}`, { ip: stranger });
      expect(res.json()).toEqual(WRONG);
    }
    const forged = { 'x-forwarded-for': '198.51.100.7' };
    const eleventh = await login(t, a.account, 'guess-10', { ip: stranger, headers: forged });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toMatchObject({ result: false, code: 429 });
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    // Locked from that address: the right password is not even checked, by account name or by mobile.
    expect((await login(t, a.account, a.password, { ip: stranger })).statusCode).toBe(429);
    expect((await login(t, '13800138002', a.password, { ip: stranger })).statusCode).toBe(429);
    // The stranger cannot lock the reader out: from the reader's own network the account still logs in.
    expect((await login(t, a.account, a.password, { ip: '10.3.1.2' })).json().result).toBe(true);
    expect((await login(t, '13800138002', a.password, { ip: '10.3.1.3' })).json().result).toBe(true);
    // Another account is not locked from the stranger's address either.
    const other = await registerVisitor(t);
    expect((await login(t, other.account, other.password, { ip: stranger })).json().result).toBe(true);
  });

  it('holds the limit under parallel guesses: attempts are counted before argon2 runs', async () => {
    const a = await registerVisitor(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(t, a.account, `parallel-${i}`, { ip: '10.4.0.1' })),
    );
    const codes = answers.map((res) => res.json().code).sort();
    expect(codes).toEqual([...Array(10).fill(102), ...Array(10).fill(429)]);
  });
});

describeDb('login failures per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '10000', LOGIN_FAILURES_PER_ADDRESS: '5' } });
  });
  afterAll(() => t?.close());

  it('counts only failures, and locks the address (not others) once the limit is reached', async () => {
    const a = await registerVisitor(t);
    const ip = '192.0.2.10';
    for (let i = 0; i < 4; i++) expect((await login(t, `yd1000000${i}`, 'x', { ip })).json()).toEqual(WRONG);
    // Correct passwords in between do not count.
    for (let i = 0; i < 3; i++)
      expect((await login(t, a.account, a.password, { ip })).json().result).toBe(true);
    expect((await login(t, 'yd10000004', 'x', { ip })).json()).toEqual(WRONG);

    const forged = { 'x-forwarded-for': '203.0.113.9' };
    const sixth = await login(t, 'yd10000005', 'x', { ip, headers: forged });
    expect(sixth.statusCode).toBe(429);
    expect((await login(t, a.account, a.password, { ip })).statusCode).toBe(429);
    expect((await login(t, a.account, a.password, { ip: '192.0.2.11' })).json().result).toBe(true);
  });
});

describeDb('expired sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t?.close());

  it('are removed by the sweeper; live ones stay', async () => {
    const live = await registerVisitor(t);
    const ended = await registerVisitor(t);
    const endedHash = hashToken(ended.cookie.slice('sid='.length));
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, endedHash));
    expect(await t.app.ports.users.sweepExpiredSessions()).toBe(1);
    expect(await t.db.select().from(sessions).where(eq(sessions.tokenHash, endedHash))).toEqual([]);
    expect(await infoStatus(t, live.cookie)).toBe(200);
    expect(await t.app.ports.users.sweepExpiredSessions()).toBe(0);
  });

  it('sign nobody in once ended, before the sweeper removes them (the lookup compares the end with now)', async () => {
    const reader = await registerVisitor(t);
    expect(await infoStatus(t, reader.cookie)).toBe(200);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(reader.cookie.slice('sid='.length))));
    expect(await infoStatus(t, reader.cookie)).toBe(401);
  });
});
