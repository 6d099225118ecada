// Who the sandbox gateway takes payments from, and what it offers where. On by default for the local origin while the
// server listens on every interface, it pays only clients on this machine (by the address the server computes,
// TRUST_PROXY included) unless SANDBOX_PAY=true; inside WeChat's own browser it offers only WeChat Pay's channels,
// as the recharge centre's note says (微信内仅支持微信支付).
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { payOrders, sandboxPayments } from '../../db/schema/index.ts';
import { applyUrl, balanceOf, demo, injectSend, orderByNo } from '../payments/payments.test-support.ts';

const FAR = '203.0.113.9';
const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 MicroMessenger/8.0.50';

interface From {
  ip?: string;
  headers?: Record<string, string>;
}

describeDb('the sandbox gateway: which clients it pays, and what it offers inside WeChat', () => {
  /** The channels the recharge centre offers this reader from there. */
  const offered = async (t: TestApp, cookie: string, from: From = {}) => {
    const res = await t.app.inject({
      url: '/api/user/recharge?appType=wap_browser',
      headers: { cookie, ...from.headers },
      remoteAddress: from.ip ?? '127.0.0.1',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.subTypes as { subTypeCode: string; superiorCode: string }[];
  };
  const apply = (t: TestApp, cookie: string, channel: string, amount: number, from: From = {}) =>
    t.app.inject({
      url: applyUrl({ ...demo.coin3000, payChannel: channel, rechargerAmount: amount }),
      headers: { cookie, ...from.headers },
      remoteAddress: from.ip ?? '127.0.0.1',
    });
  const ordersOf = (t: TestApp, userId: number) =>
    t.db.select().from(payOrders).where(eq(payOrders.userId, userId));

  describe('on by default (local origin, SANDBOX_PAY unset)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: manyVisitorsEnv });
    }, 180_000);
    afterEach(() => expectLedgerInvariants(t.db));
    afterAll(() => t?.close());

    it('offers nothing to another machine, refuses its apply in the envelope and makes no order', async () => {
      const reader = await registerVisitor(t, { ip: FAR });
      expect(await offered(t, reader.cookie, { ip: FAR })).toEqual([]);
      const res = await apply(t, reader.cookie, 'wechat_h5', 2850, { ip: FAR });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ result: false, code: 400, msg: expect.stringContaining('维护中') });
      expect(await ordersOf(t, reader.userId)).toEqual([]);
      // The same reader from this machine is offered every channel and pays.
      expect((await offered(t, reader.cookie)).length).toBeGreaterThan(0);
      expect((await apply(t, reader.cookie, 'wechat_h5', 2850)).statusCode).toBe(302);
    });

    it('refuses another machine at the cashier: no payment, no coins', async () => {
      const reader = await registerVisitor(t);
      const res = await apply(t, reader.cookie, 'wechat_h5', 2850);
      const cashier = new URL(String(res.headers.location)).pathname;
      const page = await t.app.inject({ url: cashier, remoteAddress: FAR });
      expect(page.statusCode).toBe(403);
      expect(page.body).toContain('沙箱支付仅限本机使用');
      const confirm = await t.app.inject({ method: 'POST', url: `${cashier}/confirm`, remoteAddress: FAR });
      expect(confirm.statusCode).toBe(403);
      const tradeNo = cashier.split('/').pop() ?? '';
      const [payment] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.tradeNo, tradeNo));
      expect(payment?.status).toBe('shown');
      await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
      expect(await balanceOf(t.db, reader.userId)).toBe(0);
      expect((await orderByNo(t.db, payment?.orderNo ?? '')).status).toBe('created');
    });

    it('inside WeChat offers only WeChat Pay, refuses Alipay and bank cards at apply, and pays WeChat Pay', async () => {
      const reader = await registerVisitor(t);
      const inWechat = { headers: { 'user-agent': WECHAT_UA } };
      const there = await offered(t, reader.cookie, inWechat);
      expect(there.length).toBeGreaterThan(0);
      expect(new Set(there.map((c) => c.superiorCode))).toEqual(new Set(['wechat_pay']));
      // Outside WeChat the same reader is offered all three kinds.
      expect(new Set((await offered(t, reader.cookie)).map((c) => c.superiorCode))).toEqual(
        new Set(['alipay', 'wechat_pay', 'bank']),
      );
      const others = (await offered(t, reader.cookie)).filter((c) => c.superiorCode !== 'wechat_pay');
      expect(others.length).toBeGreaterThan(0);
      for (const channel of others) {
        // Whatever the amount: the channel is refused before the amount is checked.
        const res = await apply(t, reader.cookie, channel.subTypeCode, 3000, inWechat);
        expect(res.statusCode, channel.subTypeCode).toBe(400);
        expect(res.json().msg).toContain('微信内无法使用该支付方式');
      }
      expect(await ordersOf(t, reader.userId)).toEqual([]);
      expect((await apply(t, reader.cookie, 'wechat_h5', 2850, inWechat)).statusCode).toBe(302);
    });
  });

  describe('behind a trusted proxy on this machine', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ...manyVisitorsEnv, TRUST_PROXY: '1' } });
    }, 180_000);
    afterAll(() => t?.close());

    it("judges the reader's address the proxy saw, not the proxy's own loopback", async () => {
      const reader = await registerVisitor(t);
      const far = { headers: { 'x-forwarded-for': FAR } };
      expect(await offered(t, reader.cookie, far)).toEqual([]);
      expect((await apply(t, reader.cookie, 'wechat_h5', 2850, far)).statusCode).toBe(400);
      const near = { headers: { 'x-forwarded-for': '127.0.0.1' } };
      expect((await offered(t, reader.cookie, near)).length).toBeGreaterThan(0);
    });
  });

  describe('SANDBOX_PAY=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ...manyVisitorsEnv, SANDBOX_PAY: 'true' } });
    }, 180_000);
    afterEach(() => expectLedgerInvariants(t.db));
    afterAll(() => t?.close());

    it('takes payments from any client, as the operator asked', async () => {
      const reader = await registerVisitor(t, { ip: FAR });
      expect((await offered(t, reader.cookie, { ip: FAR })).length).toBeGreaterThan(0);
      const res = await apply(t, reader.cookie, 'wechat_h5', 2850, { ip: FAR });
      expect(res.statusCode, res.body).toBe(302);
      const cashier = new URL(String(res.headers.location)).pathname;
      const confirm = await t.app.inject({ method: 'POST', url: `${cashier}/confirm`, remoteAddress: FAR });
      expect(confirm.statusCode).toBe(302);
      await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
      expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    });
  });
});
