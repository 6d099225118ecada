import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { ledgerTransfers, sandboxPayments, users } from '../../db/schema/index.ts';
import { chinaTimeParts } from '../../shared/china-time.ts';
import {
  applyWeb,
  balanceOf,
  demo,
  eventsOf,
  injectSend,
  notificationBody,
  orderByNo,
  postNotification,
} from '../payments/payments.test-support.ts';

const DAY_MS = 24 * 3600 * 1000;

describeDb('paying through the sandbox gateway, over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  const payment = async (tradeNo: string) => {
    const [row] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.tradeNo, tradeNo));
    return row;
  };

  it('apply, cashier, confirm, notification: credits the pack and its bonus once', async () => {
    const reader = await registerVisitor(t);
    const { order, cashierPath, tradeNo } = await applyWeb(t, reader.cookie, demo.coin3000, 2850, {
      vueReturnUrl: '/home',
    });

    const page = await t.app.inject({ url: cashierPath });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('¥28.50');
    expect(page.body).toContain('阅漫');
    expect(page.body).toContain(`<dt>商户订单号</dt><dd data-order-no>${order.orderNo}</dd>`);
    expect(page.body).toContain('确认支付');
    expect(page.body).toContain('取消');
    expect(page.body).toContain('width=device-width');

    const confirm = await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` });
    expect(confirm.statusCode).toBe(302);
    expect(confirm.headers.location).toBe('http://localhost:8080/home');
    // Back at the return page nothing is credited: only the notification does that.
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('created');
    expect(await payment(tradeNo)).toMatchObject({ status: 'paid', attempts: 0, acknowledgedAt: null });
    expect((await t.app.inject({ url: cashierPath })).body).toContain('支付成功');

    const lastPaid = () =>
      t.app
        .inject({ url: '/api/pay/last_paid_order', headers: { cookie: reader.cookie } })
        .then((r) => r.json());
    expect(await lastPaid()).toMatchObject({ result: true, data: null });
    const sent: string[] = [];
    expect(
      await t.app.ports.sandbox.deliverDueNotifications(injectSend(t, (url) => sent.push(url))),
    ).toMatchObject({
      delivered: 1,
      failed: 0,
    });
    expect(sent).toEqual(['http://127.0.0.1:8080/api/pay/notify/wechat_h5']);
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    const paid = await orderByNo(t.db, order.orderNo);
    expect(paid).toMatchObject({ status: 'paid', gatewayTradeNo: tradeNo });
    expect(paid.paidAt).toBeInstanceOf(Date);
    // The after-payment dialog shows the number find-account asks for; nobody else's, and none without a session.
    expect((await lastPaid()).data).toEqual({
      orderNo: order.orderNo,
      paidAt: chinaTimeParts(paid.paidAt as Date).text,
      payAmount: 2850,
    });
    const stranger = await registerVisitor(t);
    const theirs = await t.app.inject({
      url: '/api/pay/last_paid_order',
      headers: { cookie: stranger.cookie },
    });
    expect(theirs.json().data).toBeNull();
    expect((await t.app.inject({ url: '/api/pay/last_paid_order' })).statusCode).toBe(401);
    expect(await payment(tradeNo)).toMatchObject({ attempts: 1, nextAttemptAt: null });
    expect((await payment(tradeNo))?.acknowledgedAt).toBeInstanceOf(Date);

    const transfers = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.orderId, order.id));
    expect(
      transfers
        .map(({ id, kind, amount, userId }) => ({ id, kind, amount, userId }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id: `order:${order.orderNo}:bonus`, kind: 'bonus', amount: 300, userId: reader.userId },
      { id: `order:${order.orderNo}:coins`, kind: 'recharge', amount: 3000, userId: reader.userId },
    ]);
    const info = (await t.app.inject({ url: '/api/user/info', headers: { cookie: reader.cookie } })).json()
      .data;
    expect(info.avaliableAmount).toBe(3300);
    const centre = (
      await t.app.inject({ url: '/api/user/recharge', headers: { cookie: reader.cookie } })
    ).json().data;
    expect(centre.availableAmount).toBe(3300);

    // Nothing more is owed; confirming again only returns the browser.
    expect(
      await t.app.ports.sandbox.deliverDueNotifications(injectSend(t), new Date(Date.now() + DAY_MS)),
    ).toMatchObject({
      delivered: 0,
      failed: 0,
    });
    expect((await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` })).statusCode).toBe(302);
    expect(await t.app.ports.sandbox.deliverDueNotifications(injectSend(t))).toMatchObject({ delivered: 0 });
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    expect((await eventsOf(t.db, order.id)).map((e) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'created', 'apply'],
      ['created', 'paid', 'notify'],
    ]);
  });

  it('a VIP pack extends vip_end once per order, from the later of now and the current end', async () => {
    const reader = await registerVisitor(t);
    const first = await applyWeb(t, reader.cookie, demo.vip30, 2850);
    await t.app.inject({ method: 'POST', url: `${first.cashierPath}/confirm` });
    const before = Date.now();
    await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
    const [row] = await t.db.select({ vipEnd: users.vipEnd }).from(users).where(eq(users.id, reader.userId));
    const vipEnd = row?.vipEnd ?? new Date(0);
    expect(vipEnd.getTime()).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 5000);
    expect(vipEnd.getTime()).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 5000);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);

    const info = (await t.app.inject({ url: '/api/user/info', headers: { cookie: reader.cookie } })).json()
      .data;
    const end = chinaTimeParts(vipEnd);
    expect(info).toMatchObject({
      vipType: 'vip',
      vipEndYear: end.year,
      vipEndMonth: end.month,
      vipEndDay: end.day,
      vipEndHour: end.hour,
      vipEndDate: end.text,
    });

    // The same payment notified again (a retry with a fresh signature) changes nothing.
    const again = notificationBody(t.config.sandboxPayKey, {
      orderNo: first.order.orderNo,
      amount: '2850',
      tradeNo: first.tradeNo,
    });
    const res = await postNotification(t, 'wechat_h5', again);
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toBe(true);
    const [same] = await t.db.select({ vipEnd: users.vipEnd }).from(users).where(eq(users.id, reader.userId));
    expect(same?.vipEnd?.getTime()).toBe(vipEnd.getTime());

    // A second order adds its days to the end of the first.
    const second = await applyWeb(t, reader.cookie, demo.vip30, 2850);
    await t.app.inject({ method: 'POST', url: `${second.cashierPath}/confirm` });
    await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
    const [later] = await t.db
      .select({ vipEnd: users.vipEnd })
      .from(users)
      .where(eq(users.id, reader.userId));
    expect(later?.vipEnd?.getTime()).toBe(vipEnd.getTime() + 30 * DAY_MS);
  });

  it('cancel at the cashier returns the payer, owes nothing, and the sweeper later expires the order', async () => {
    const reader = await registerVisitor(t);
    const { order, cashierPath, tradeNo } = await applyWeb(t, reader.cookie, demo.coin600, 570, {
      vueReturnUrl: '/user',
    });
    const cancel = await t.app.inject({ method: 'POST', url: `${cashierPath}/cancel` });
    expect(cancel.statusCode).toBe(302);
    expect(cancel.headers.location).toBe('http://localhost:8080/user');
    expect((await payment(tradeNo))?.status).toBe('cancelled');
    expect((await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` })).statusCode).toBe(409);
    expect((await t.app.inject({ url: cashierPath })).body).toContain('已取消');
    expect(await t.app.ports.sandbox.deliverDueNotifications(injectSend(t))).toMatchObject({
      delivered: 0,
      failed: 0,
    });

    // Not yet due at 14 minutes; expired at 16.
    expect(await t.app.ports.payments.expireStaleOrders(new Date(Date.now() + 14 * 60_000))).not.toContain(
      order.id,
    );
    expect(await t.app.ports.payments.expireStaleOrders(new Date(Date.now() + 16 * 60_000))).toContain(
      order.id,
    );
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('expired');
    expect((await eventsOf(t.db, order.id)).map((e) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'created', 'apply'],
      ['created', 'expired', 'sweeper'],
    ]);
    // A second sweep changes nothing.
    expect(await t.app.ports.payments.expireStaleOrders(new Date(Date.now() + 60 * 60_000))).not.toContain(
      order.id,
    );
    expect(await eventsOf(t.db, order.id)).toHaveLength(2);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
  });

  // From here on in this file the app listens and its background jobs run.
  it('in a listening server, the background notifier delivers over HTTP to the server itself', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.jobs.start();
    const reader = await registerVisitor(t);
    const { cashierPath, tradeNo } = await applyWeb(t, reader.cookie, demo.coin600, 570);
    const port = (t.app.server.address() as { port: number }).port;
    expect((await payment(tradeNo))?.notifyUrl).toBe(`http://127.0.0.1:${port}/api/pay/notify/wechat_h5`);
    await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` });
    // The credit commits before the notifier hears the answer and records it: wait for both.
    const deadline = Date.now() + 10_000;
    while (!(await payment(tradeNo))?.acknowledgedAt && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await balanceOf(t.db, reader.userId)).toBe(600);
    expect((await payment(tradeNo))?.acknowledgedAt).toBeInstanceOf(Date);
  });

  it('answers 404 pages for unknown trades', async () => {
    for (const path of ['/sandbox-pay/cashier/SB000000000000000000000000', '/sandbox-pay/cashier/nope']) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect((await t.app.inject({ method: 'POST', url: `${path}/confirm` })).statusCode).toBe(404);
    }
  });
});
