import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { sessions, users, visitMarks } from '../../db/schema/index.ts';

describeDb('visitors and sessions', () => {
  let t: TestApp;
  const register = (headers: Record<string, string> = {}, query = '') =>
    t.app.inject({ method: 'POST', url: `/api/user/register${query}`, headers });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('registers a visitor with a generated account and password, answered once, stored only as a hash', async () => {
    const res = await register(
      { 'x-trace-id': 'visitor-abc-123', 'x-branch-id': '17' },
      '?fromDomain=m.example.com',
    );
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.account).toMatch(/^yd\d{8}$/);
    expect(data.password).toMatch(/^[2-9a-zA-Z]{12,}$/);
    expect(data).toMatchObject({
      visitorId: 'visitor-abc-123',
      branchId: 17,
      vipType: 'none',
      avaliableAmount: 0,
    });

    const [row] = await t.db.select().from(users).where(eq(users.id, data.userId));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.passwordHash).not.toContain(data.password);
    expect(row?.fromDomain).toBe('m.example.com');

    const sid = res.cookies.find((c) => c.name === 'sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const stored = await t.db.select().from(sessions).where(eq(sessions.userId, data.userId));
    expect(stored.map((s) => s.tokenHash)).toEqual([
      createHash('sha256')
        .update(sid?.value ?? '')
        .digest('hex'),
    ]);
  });

  it('ignores a malformed trace id and generates a visitor id', async () => {
    const { data } = (await register({ 'x-trace-id': 'bad id!' })).json();
    expect(data.visitorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.branchId).toBe(-2);
  });

  it('answers user info for the session only, never the password', async () => {
    const res = await register();
    const cookie = sessionCookie(res);
    const info = (await t.app.inject({ url: '/api/user/info', headers: { cookie } })).json();
    expect(info).toMatchObject({ result: true, data: { userId: res.json().data.userId, password: '' } });
    expect(info.data).toHaveProperty('vipEndDate', '');

    const anonymous = await t.app.inject({ url: '/api/user/info' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ result: false, code: 401 });
    const forged = await t.app.inject({ url: '/api/user/info', headers: { cookie: 'sid=forged-token' } });
    expect(forged.statusCode).toBe(401);
  });

  it('refuses with 403 a request whose identity headers contradict its session', async () => {
    const mine = (await register()).json().data;
    const cookie = sessionCookie(await register());
    const other = await t.app.inject({
      url: '/api/user/info',
      headers: { cookie, 'x-user-id': String(mine.userId) },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ result: false, code: 403 });
    const account = await t.app.inject({
      url: '/api/user/info',
      headers: { cookie, 'x-account': mine.account },
    });
    expect(account.statusCode).toBe(403);
  });

  it('reports the first visit once per branch and visitor', async () => {
    const mark = (branch: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/user_from_mark?referUrl=https%3A%2F%2Fexample.com%2Fad',
        headers: { 'x-trace-id': 'visitor-mark-1', 'x-branch-id': branch },
      });
    expect((await mark('5')).json().data).toEqual({ firstVisit: true });
    expect((await mark('5')).json().data).toEqual({ firstVisit: false });
    expect((await mark('6')).json().data).toEqual({ firstVisit: true });
    const rows = await t.db.select().from(visitMarks).where(eq(visitMarks.visitorId, 'visitor-mark-1'));
    expect(rows).toHaveLength(2);
    expect(rows[0]?.referUrl).toBe('https://example.com/ad');

    const anonymous = await t.app.inject({ method: 'POST', url: '/api/user/user_from_mark' });
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json().msg).toContain('x-trace-id');
  });
});

describeDb('registration limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '2' } });
  });
  afterAll(() => t?.close());

  it('limits registration per client address, whatever X-Forwarded-For says', async () => {
    const register = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/user/register', headers });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await register({ 'x-forwarded-for': `203.0.113.${i}` })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    const limited = await register();
    expect(limited.json()).toMatchObject({ result: false, code: 429 });
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
