// Refunds, completed: a sandbox order refunded from the console with its coins taken back (only what is
// unspent, once) or kept, the roles, and the races: a double click, two request ids at once for the whole amount.
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import {
  auditLog,
  ledgerTransfers,
  payConfigs,
  payOrderEvents,
  payOrders,
  payRefunds,
  sandboxRefunds,
  users,
  vipAdjustments,
} from '../../db/schema/index.ts';
import {
  applyUrl,
  applyWeb,
  balanceOf,
  demo,
  injectSend,
  notificationBody,
  orderByNo,
  postNotification,
} from './payments.test-support.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];

describeDb('refunds, completed', () => {
  let t: TestApp;
  let admin: Admin;
  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await consoleOperators(t, ['owner', 'finance', 'support', 'editor']));
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  /** A reader's coin600 order paid through the sandbox (its cashier, then its notification): 588 cents. */
  async function paidSandboxOrder(reader: TestVisitor) {
    const url = applyUrl({
      ...demo.coin600,
      payChannel: 'unionpay',
      rechargerAmount: 588,
      vueReturnUrl: '/home',
    });
    const res = await t.app.inject({ url, headers: { cookie: reader.cookie } });
    expect(res.statusCode, res.body).toBe(302);
    const confirm = await t.app.inject({
      method: 'POST',
      url: `${new URL(String(res.headers.location), 'http://localhost').pathname}/confirm`,
    });
    expect(confirm.statusCode).toBe(302);
    await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
    const [order] = await t.db
      .select()
      .from(payOrders)
      .where(eq(payOrders.userId, reader.userId))
      .orderBy(payOrders.id);
    if (!order) throw new Error('no order');
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('paid');
    return order;
  }

  const refund = (role: string, orderNo: string, body: Record<string, unknown>) =>
    admin(role as 'owner', 'POST', `/api/admin/orders/${orderNo}/refunds`, {
      amount: 588,
      reason: '读者申请退款',
      requestId: randomUUID(),
      ...body,
    });

  const takeBacks = (refundNo: string) =>
    t.db
      .select()
      .from(ledgerTransfers)
      .where(like(ledgerTransfers.id, `refund:${refundNo}:%`));

  it('refunds through the sandbox taking back only the unspent coins, once for a double click; support and editors get 403', async () => {
    const reader = await registerVisitor(t);
    const order = await paidSandboxOrder(reader);
    expect(await balanceOf(t.db, reader.userId)).toBe(600);
    // Spend 150 of them (an operator's take-back stands for chapters bought).
    await t.db.transaction(async (tx) => {
      await t.app.ports.wallet.takeBackCoins(tx, {
        transferId: `test:${order.orderNo}`,
        userId: reader.userId,
        most: 150,
        memo: 'spent',
      });
    });

    for (const role of ['support', 'editor']) {
      const refused = await refund(role, order.orderNo, { coins: 'take' });
      expect(refused.json()).toMatchObject({ result: false, code: 403 });
    }
    expect(await t.db.select().from(payRefunds).where(eq(payRefunds.orderId, order.id))).toEqual([]);

    // A double click: one request id, twice at once.
    const requestId = randomUUID();
    const [a, b] = await Promise.all([
      refund('finance', order.orderNo, { coins: 'take', requestId }),
      refund('finance', order.orderNo, { coins: 'take', requestId }),
    ]);
    expect(a.json(), a.body).toMatchObject({
      result: true,
      data: { refund: { state: 'success', coins: 'take' } },
    });
    expect(b.json(), b.body).toMatchObject({ result: true, data: { refund: { state: 'success' } } });
    const refundNo = a.json().data.refund.refundNo as string;
    expect(b.json().data.refund.refundNo).toBe(refundNo);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    expect(await takeBacks(refundNo)).toMatchObject([{ kind: 'revoke', amount: 450, userId: reader.userId }]);
    const [row] = await t.db.select().from(payRefunds).where(eq(payRefunds.refundNo, refundNo));
    expect(row).toMatchObject({ coins: 'take', coinsTaken: 450, state: 'success' });
    // The sandbox's cashier recorded the refund once.
    expect(
      await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.refundNo, refundNo)),
    ).toHaveLength(1);
    // The order's story says how many came back.
    const events = await t.db.select().from(payOrderEvents).where(eq(payOrderEvents.orderId, order.id));
    expect(events.filter((e) => e.source === 'refund-coins').map((e) => e.detail)).toEqual([
      `退款 ${refundNo}：收回 450 阅币`,
    ]);
    const story = await admin('finance', 'GET', `/api/admin/orders/${order.orderNo}`);
    expect(story.json().data.refunds).toMatchObject([{ refundNo, coins: 'take', coinsTaken: 450 }]);
  });

  it('takes back the first-recharge offer the refunded order brought (pay, take the offer, refund: nothing kept)', async () => {
    const window = {
      firstPayBonus: 100,
      firstPayStartsAt: new Date(Date.now() - 3_600_000),
      firstPayEndsAt: new Date(Date.now() + 3_600_000),
    };
    await t.db.update(payConfigs).set(window).where(eq(payConfigs.id, demo.coin600.payPurposeId));
    try {
      const reader = await registerVisitor(t);
      const order = await paidSandboxOrder(reader);
      expect(await balanceOf(t.db, reader.userId)).toBe(600 + 100);
      const res = await refund('finance', order.orderNo, { requestId: randomUUID(), coins: 'take' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.refund).toMatchObject({ state: 'success', coinsTaken: 700 });
      expect(await balanceOf(t.db, reader.userId)).toBe(0);
    } finally {
      await t.db
        .update(payConfigs)
        .set({ firstPayBonus: 0, firstPayStartsAt: null, firstPayEndsAt: null })
        .where(eq(payConfigs.id, demo.coin600.payPurposeId));
    }
  });

  it('two request ids at once for the whole amount: one refund, coins taken once; keep leaves the coins', async () => {
    const reader = await registerVisitor(t);
    const order = await paidSandboxOrder(reader);
    const answers = await Promise.all([
      refund('owner', order.orderNo, { coins: 'take' }),
      refund('finance', order.orderNo, { coins: 'take' }),
    ]);
    expect(answers.filter((r) => r.json().result === true)).toHaveLength(1);
    expect(answers.filter((r) => r.json().result === false)).toHaveLength(1);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    const refunds = await t.db.select().from(payRefunds).where(eq(payRefunds.orderId, order.id));
    expect(refunds).toMatchObject([{ coinsTaken: 600, state: 'success' }]);

    const keeper = await registerVisitor(t);
    const kept = await paidSandboxOrder(keeper);
    const res = await refund('owner', kept.orderNo, { coins: 'keep' });
    expect(res.json()).toMatchObject({ result: true, data: { refund: { coins: 'keep', coinsTaken: 0 } } });
    expect(await balanceOf(t.db, keeper.userId)).toBe(600);
    const events = await t.db.select().from(payOrderEvents).where(eq(payOrderEvents.orderId, kept.id));
    expect(events.filter((e) => e.source === 'refund-coins').map((e) => e.detail)).toEqual([
      `退款 ${res.json().data.refund.refundNo}：保留阅币`,
    ]);
  });

  it('a notification of the payment arriving during the refund loses nothing; a VIP order ends early by its days', async () => {
    const reader = await registerVisitor(t);
    const order = await paidSandboxOrder(reader);
    const again = notificationBody(t.config.sandboxPayKey, {
      orderNo: order.orderNo,
      amount: '588',
      tradeNo: order.gatewayTradeNo ?? '',
    });
    const [refunded, notified] = await Promise.all([
      refund('owner', order.orderNo, { coins: 'take' }),
      postNotification(t, 'unionpay', again),
    ]);
    expect(refunded.json()).toMatchObject({
      result: true,
      data: { refund: { state: 'success', coinsTaken: 600 } },
    });
    expect(notified.statusCode).toBe(200);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('paid');

    // VIP: 30 days bought, the refund ends them early by 30 (once, whatever the choice), recorded as an adjustment.
    const vipReader = await registerVisitor(t);
    const vip = await applyWeb(t, vipReader.cookie, demo.vip30, 2850);
    await t.app.inject({ method: 'POST', url: `${vip.cashierPath}/confirm` });
    await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
    const vipEnd = async () =>
      (await t.db.select({ vipEnd: users.vipEnd }).from(users).where(eq(users.id, vipReader.userId)))[0]
        ?.vipEnd;
    const bought = (await vipEnd())?.getTime() ?? 0;
    expect(bought).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    const [first, second] = await Promise.all([
      refund('finance', vip.order.orderNo, { amount: 1000, coins: 'keep' }),
      refund('owner', vip.order.orderNo, { amount: 1000, coins: 'take' }),
    ]);
    expect(first.json().result && second.json().result).toBe(true);
    expect((await vipEnd())?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(
      await t.db
        .select()
        .from(vipAdjustments)
        .where(eq(vipAdjustments.id, `vip:refund:${vip.order.orderNo}`)),
    ).toMatchObject([{ days: -30, userId: vipReader.userId }]);
    const events = await t.db.select().from(payOrderEvents).where(eq(payOrderEvents.orderId, vip.order.id));
    expect(
      events
        .filter((e) => e.source === 'refund-coins')
        .map((e) => e.detail.split('：')[1])
        .sort(),
    ).toEqual(['会员天数已在此前的退款中扣回', '会员提前结束 30 天']);
  });

  it('an order whose gateway cannot refund is marked 线下已退款 with a reason, audited, its coins taken back', async () => {
    const reader = await registerVisitor(t);
    const order = await paidSandboxOrder(reader);
    // Through the sandbox it refunds itself: marking it refunded outside is refused.
    const refused = await refund('owner', order.orderNo, { offline: true });
    expect(refused.json()).toMatchObject({
      result: false,
      code: 400,
      msg: '该订单可以原路退款，不能标记线下已退款',
    });
    // A gateway this server cannot refund through (an old one, say).
    await t.db.update(payOrders).set({ gateway: 'legacy' }).where(eq(payOrders.id, order.id));
    const story = (await admin('finance', 'GET', `/api/admin/orders/${order.orderNo}`)).json().data;
    expect(story.refund).toMatchObject({ left: 588, offline: true });
    const through = await refund('owner', order.orderNo, { coins: 'take' });
    expect(through.json()).toMatchObject({ result: false, code: 400 });
    const noReason = await refund('finance', order.orderNo, { offline: true, reason: '  ' });
    expect(noReason.json()).toMatchObject({ result: false, code: 400 });
    for (const role of ['support', 'editor']) {
      expect((await refund(role, order.orderNo, { offline: true })).json()).toMatchObject({ code: 403 });
    }
    expect(await t.db.select().from(payRefunds).where(eq(payRefunds.orderId, order.id))).toEqual([]);

    const requestId = randomUUID();
    const body = { offline: true, coins: 'take', reason: '已在商户平台退款', requestId };
    const [a, b] = await Promise.all([
      refund('finance', order.orderNo, body),
      refund('finance', order.orderNo, body),
    ]);
    for (const res of [a, b]) {
      expect(res.json(), res.body).toMatchObject({
        result: true,
        data: { refund: { kind: 'offline', state: 'success', coinsTaken: 600, gatewayRefundNo: null } },
      });
    }
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, `order:${order.orderNo}`), eq(auditLog.action, 'order.refund.offline')));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.after).toMatchObject({
      amount: 588,
      kind: 'offline',
      coins: 'take',
      reason: '已在商户平台退款',
    });
    const events = await t.db.select().from(payOrderEvents).where(eq(payOrderEvents.orderId, order.id));
    const refundNo = a.json().data.refund.refundNo;
    expect(events.filter((e) => e.source.startsWith('refund')).map((e) => e.detail)).toEqual([
      `线下已退款 ${refundNo}：5.88 元（已在商户平台退款）`,
      `退款 ${refundNo}：收回 600 阅币`,
    ]);
    expect((await refund('owner', order.orderNo, { offline: true, amount: 1 })).json()).toMatchObject({
      result: false,
      code: 400,
    });
  });
});
