// Out of WeChat without losing the account: a one-time link (ten minutes, one use, bound to the account that asked,
// limited per account) signs another browser in to that account; a used, expired, unknown or malformed token
// changes nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { infoStatus, manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { handoffTokens } from '../../db/schema/index.ts';
import { safeLandingPath } from './handoff.service.ts';
import { hashToken } from './sessions.ts';

describeDb('hand-off links out of a chat app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
  });
  afterAll(() => t?.close());

  const ask = (cookie: string, to = '/book/1') =>
    t.app.inject({
      method: 'POST',
      url: `/api/user/handoff?to=${encodeURIComponent(to)}`,
      headers: { cookie },
    });
  const redeem = (token: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/handoff/redeem',
      headers: cookie ? { cookie } : {},
      payload: { token },
    });
  const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

  it('signs another browser in to the account once, replacing that browser’s own session', async () => {
    const inWechat = await registerVisitor(t);
    const link = (await ask(inWechat.cookie)).json().data;
    const url = new URL(link.url);
    expect(url.origin + url.pathname).toBe('http://localhost:8080/handoff');
    expect(url.searchParams.get('to')).toBe('/book/1');
    const token = tokenOf(link.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only its hash is kept.
    const [row] = await t.db
      .select()
      .from(handoffTokens)
      .where(eq(handoffTokens.tokenHash, hashToken(token)));
    expect(row?.userId).toBe(inWechat.userId);

    const systemBrowser = await registerVisitor(t);
    const res = await redeem(token, systemBrowser.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ userId: inWechat.userId, account: inWechat.account });
    const signedIn = sessionCookie(res);
    const info = await t.app.inject({ url: '/api/user/info', headers: { cookie: signedIn } });
    expect(info.json().data.userId).toBe(inWechat.userId);
    // The browser's old session ended; the chat app's goes on.
    expect(await infoStatus(t, systemBrowser.cookie)).toBe(401);
    expect(await infoStatus(t, inWechat.cookie)).toBe(200);

    // Useless twice, or at once from two tabs: one wins.
    expect((await redeem(token)).statusCode).toBe(400);
    const again = tokenOf((await ask(inWechat.cookie)).json().data.url);
    const both = await Promise.all([redeem(again), redeem(again)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses expired, unknown and malformed tokens, changing nothing', async () => {
    const reader = await registerVisitor(t);
    const token = tokenOf((await ask(reader.cookie)).json().data.url);
    await t.db
      .update(handoffTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(handoffTokens.tokenHash, hashToken(token)));
    const browser = await registerVisitor(t);
    for (const bad of [token, 'A'.repeat(43), 'short', `${token}x`]) {
      const res = await redeem(bad, browser.cookie);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ result: false, msg: '链接已失效，请回到微信重新获取' });
      expect(res.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    }
    expect(await infoStatus(t, browser.cookie)).toBe(200);
  });

  it('needs a session to ask, limits links per account, and lands only on this site', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/user/handoff' })).statusCode).toBe(401);
    const reader = await registerVisitor(t);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await ask(reader.cookie)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(safeLandingPath('//evil.example/x')).toBe('/home');
    expect(safeLandingPath('/\\evil.example')).toBe('/home');
    expect(safeLandingPath('https://evil.example/')).toBe('/home');
    expect(safeLandingPath('/open-in-browser?from=%2Fbook%2F1')).toBe('/home');
    expect(safeLandingPath('/book/read/1/2?title=x')).toBe('/book/read/1/2?title=x');
  });
});
