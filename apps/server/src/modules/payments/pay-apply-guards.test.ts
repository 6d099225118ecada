// Pay apply only from our own pages, one order per tap, and the sandbox only where it cannot give coins away.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { dbKind, describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { payOrders, sandboxPayments } from '../../db/schema/index.ts';
import { applyUrl, demo } from './payments.test-support.ts';

const coinApply = applyUrl({ ...demo.coin3000, payChannel: 'wechat_h5', rechargerAmount: 2850 });

describeDb('pay apply', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
  });
  afterAll(() => t?.close());

  const ordersOf = (userId: number) => t.db.select().from(payOrders).where(eq(payOrders.userId, userId));
  const apply = (cookie: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: coinApply, headers: { cookie, ...headers } });

  it('answers only navigations from our own pages; other sites make no order', async () => {
    const reader = await registerVisitor(t);
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'same-site', referer: 'https://evil.localhost.example/' },
      { referer: 'https://evil.example/pay' },
    ]) {
      const res = await apply(reader.cookie, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ result: false, code: 403 });
    }
    expect(await ordersOf(reader.userId)).toEqual([]);
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'same-origin' },
      { referer: 'http://localhost:8080/purchase' },
      {},
    ]) {
      expect((await apply(reader.cookie, headers)).statusCode, JSON.stringify(headers)).toBe(302);
    }
  });

  it('makes one order for one tap: a second apply, or two at once, get the same order and cashier', async () => {
    const reader = await registerVisitor(t);
    const first = await apply(reader.cookie);
    const [second, third] = await Promise.all([apply(reader.cookie), apply(reader.cookie)]);
    expect(first.statusCode).toBe(302);
    expect(second.headers.location).toBe(first.headers.location);
    expect(third.headers.location).toBe(first.headers.location);
    expect(await ordersOf(reader.userId)).toHaveLength(1);
    const [order] = await ordersOf(reader.userId);
    const payments = await t.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.orderNo, order?.orderNo ?? ''));
    expect(payments).toHaveLength(1);

    // Another pack is another order; so is the same pack once the first order is a minute old.
    const vip = await t.app.inject({
      url: applyUrl({ ...demo.vip30, payChannel: 'wechat_h5', rechargerAmount: 2850 }),
      headers: { cookie: reader.cookie },
    });
    expect(vip.statusCode, vip.body).toBe(302);
    await t.db
      .update(payOrders)
      .set({ createdAt: new Date(Date.now() - 61_000) })
      .where(eq(payOrders.orderNo, order?.orderNo ?? ''));
    const later = await apply(reader.cookie);
    expect(later.headers.location).not.toBe(first.headers.location);
    expect(await ordersOf(reader.userId)).toHaveLength(3);
  });
});

describe.skipIf(dbKind !== 'pglite')('the sandbox gateway on a public origin', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('is off: no channel is offered, apply and pay refuse, the cashier does not answer', async () => {
    t = await createTestApp({ env: { ...manyVisitorsEnv, PUBLIC_ORIGIN: 'https://m.example.com' } });
    const reader = await registerVisitor(t);
    const centre = (
      await t.app.inject({ url: '/api/user/recharge', headers: { cookie: reader.cookie } })
    ).json();
    expect(centre.data.subTypes).toEqual([]);
    expect(centre.data.payConfigs.length).toBeGreaterThan(0);
    const applied = await t.app.inject({ url: coinApply, headers: { cookie: reader.cookie } });
    expect(applied.statusCode).toBe(400);
    expect(applied.json().msg).toContain('维护');
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/pay/pay?payChannel=wechat_h5&payPurpose=coin&rechargerAmount=2850',
      headers: { cookie: reader.cookie },
    });
    expect(paid.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/sandbox-pay/cashier/SB0/confirm' })).statusCode).toBe(
      404,
    );
    expect(await t.db.select().from(payOrders)).toEqual([]);
  });

  it('is on there only when the operator says SANDBOX_PAY=true', async () => {
    await t.close();
    t = await createTestApp({
      env: { ...manyVisitorsEnv, PUBLIC_ORIGIN: 'https://m.example.com', SANDBOX_PAY: 'true' },
    });
    const reader = await registerVisitor(t);
    const centre = (
      await t.app.inject({ url: '/api/user/recharge', headers: { cookie: reader.cookie } })
    ).json();
    expect(centre.data.subTypes.length).toBeGreaterThan(0);
    expect((await t.app.inject({ url: coinApply, headers: { cookie: reader.cookie } })).statusCode).toBe(302);
  });
});
