// Paying through Alipay end to end, against the Alipay fake on loopback (test/fakes/alipay-fake.ts) that signs as
// Alipay documents: pay apply to the gateway's cashier, the notification to credit, duplicates and forgeries, a lost
// notification found by the reconciler. The ledger's invariants hold after each.
import { beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { makeRsaKeyPair } from '../../../test/fakes/alipay-fake.ts';
import { type GatewayApp, gatewayAppPerFile, latestOrderOf } from '../../../test/real-gateways.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { registerVisitor } from '../../../test/visitors.ts';
import { applyUrl, balanceOf, demo, eventsOf, moneyState, orderByNo } from './payments.test-support.ts';

describeDb('paying through Alipay (its fake on loopback)', () => {
  const app = gatewayAppPerFile();
  let t: TestApp;
  let gateways: GatewayApp['gateways'];
  let base: string;
  beforeAll(() => {
    ({ t, gateways, base } = app);
  });

  /** Pay apply for 3000 coins (+300) through alipay_wap; the browser opens the cashier it is sent to. */
  async function apply() {
    const reader = await registerVisitor(t);
    const res = await t.app.inject({
      url: applyUrl({
        ...demo.coin3000,
        payChannel: 'alipay_wap',
        rechargerAmount: 3000,
        vueReturnUrl: '/home',
      }),
      headers: { cookie: reader.cookie },
    });
    expect(res.statusCode, res.body).toBe(302);
    const location = String(res.headers.location);
    expect(location.startsWith(`${gateways.alipay.gateway}?`)).toBe(true);
    const order = await latestOrderOf(t, reader.userId);
    const cashier = await fetch(location);
    return { reader, order, location, cashier: await cashier.text(), status: cashier.status };
  }
  const notify = (body: string) =>
    fetch(`${base}/api/pay/notify/alipay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
    }).then(async (r) => ({ status: r.status, body: await r.text() }));

  it('sends the reader to Alipay’s cashier, signed, and credits once Alipay notifies the payment', async () => {
    const { reader, order, location, cashier, status } = await apply();
    const sent = new URL(location);
    expect(sent.searchParams.get('method')).toBe('alipay.trade.wap.pay');
    expect(sent.searchParams.get('sign_type')).toBe('RSA2');
    expect(sent.searchParams.get('notify_url')).toBe(`${base}/api/pay/notify/alipay`);
    expect(JSON.parse(sent.searchParams.get('biz_content') ?? '{}')).toMatchObject({
      out_trade_no: order.orderNo,
      total_amount: '30.00',
      product_code: 'QUICK_WAP_WAY',
    });
    expect(status).toBe(200);
    expect(cashier).toContain('¥30.00');
    expect(await balanceOf(t.db, reader.userId)).toBe(0);

    gateways.alipay.pay(order.orderNo);
    await gateways.alipay.settled();
    expect(gateways.alipay.notifications().at(-1)).toMatchObject({ acknowledged: true });
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    const paid = await orderByNo(t.db, order.orderNo);
    expect(paid).toMatchObject({ status: 'paid', gateway: 'alipay', channel: 'alipay_wap' });
    const events = await eventsOf(t.db, order.id);
    expect(events.at(-1)).toMatchObject({ source: 'notify', toStatus: 'paid' });
    // The notification is kept with the order, without its signature.
    expect(events.at(-1)?.payload).toMatchObject({
      out_trade_no: order.orderNo,
      trade_status: 'TRADE_SUCCESS',
    });
    expect(JSON.stringify(events.at(-1)?.payload)).not.toContain('"sign"');
  });

  it('credits once when the same notification comes 100 times at once', async () => {
    const { reader, order } = await apply();
    gateways.alipay.pay(order.orderNo);
    await gateways.alipay.settled();
    const { body } = gateways.alipay.signNotification(gateways.alipay.notificationFields(order.orderNo));
    const answers = await Promise.all(Array.from({ length: 100 }, () => notify(body)));
    expect(answers.every((a) => a.status === 200 && a.body === 'success')).toBe(true);
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
  });

  it('refuses forged, mistaken and unknown notifications, changing nothing', async () => {
    const { order } = await apply();
    const { alipay } = gateways;
    const fields = (o: Record<string, string> = {}) => alipay.notificationFields(order.orderNo, o);
    const stranger = makeRsaKeyPair();
    const before = await moneyState(t.db);
    const forged = [
      alipay.signNotification(fields(), stranger.privateKey).body,
      alipay.signNotification(fields({ sign_type: 'RSA' })).body,
      alipay.signNotification(fields({ app_id: '2021999999999999' })).body,
      alipay.signNotification(fields({ seller_id: '2088000000000000' })).body,
      alipay.signNotification(fields({ total_amount: '0.01' })).body,
      alipay.signNotification(fields({ out_trade_no: 'NO-SUCH-ORDER-000000000000' })).body,
      // Signed, then the amount changed on the way.
      alipay.signNotification(fields()).body.replace(/total_amount=[^&]+/, 'total_amount=0.01'),
    ];
    for (const body of forged) expect(await notify(body), body).toEqual({ status: 200, body: 'fail' });
    expect(await moneyState(t.db)).toEqual(before);
    const refusals = (await eventsOf(t.db, order.id)).filter((e) => e.detail.startsWith('refused'));
    expect(refusals.map((e) => e.detail)).toEqual(['refused: amount 1, order asks 3000']);
  });

  it('records a notification that is not a payment, and the reconciler credits a payment whose notification was lost', async () => {
    const { reader, order } = await apply();
    const waiting = gateways.alipay.signNotification(
      gateways.alipay.notificationFields(order.orderNo, { trade_status: 'WAIT_BUYER_PAY' }),
    );
    expect(await notify(waiting.body)).toEqual({ status: 200, body: 'success' });
    expect((await eventsOf(t.db, order.id)).at(-1)).toMatchObject({ detail: 'alipay says WAIT_BUYER_PAY' });

    gateways.alipay.dropNotifications(1);
    gateways.alipay.pay(order.orderNo);
    await gateways.alipay.settled();
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    // Not yet: the payer has a few minutes before the reconciler asks.
    expect((await t.app.ports.payments.reconcile()).outcomes).not.toContain('credited');
    const later = new Date(Date.now() + 5 * 60_000);
    const round = await t.app.ports.payments.reconcile(later);
    expect(round.outcomes).toContain('credited');
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    expect((await eventsOf(t.db, order.id)).at(-1)).toMatchObject({ source: 'query', toStatus: 'paid' });
    // Asked again, or notified after all: nothing more.
    expect((await t.app.ports.payments.reconcile(later)).outcomes).not.toContain('credited');
    const late = gateways.alipay.signNotification(gateways.alipay.notificationFields(order.orderNo));
    expect(await notify(late.body)).toEqual({ status: 200, body: 'success' });
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
  });

  it('refunds through Alipay once when the owner asks twice, and refuses more than was paid or a wrong role', async () => {
    const { admin } = await consoleOperators(t, ['owner', 'support']);
    const { order } = await apply();
    const refundUrl = `/api/admin/orders/${order.orderNo}/refunds`;
    const unpaid = await admin('owner', 'POST', refundUrl, {
      amount: 100,
      reason: '测试',
      requestId: 'req-unpaid-1',
    });
    expect(unpaid.json()).toMatchObject({ code: 400, msg: '订单未支付，不能退款' });
    gateways.alipay.pay(order.orderNo);
    await gateways.alipay.settled();

    const ask = () =>
      admin('owner', 'POST', refundUrl, { amount: 1000, reason: '用户申请', requestId: 'req-0001' });
    const [first, second] = await Promise.all([ask(), ask()]);
    for (const res of [first, second]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.refund).toMatchObject({ amount: 1000, state: 'success' });
    }
    expect(gateways.alipay.trade(order.orderNo)?.refunds).toHaveLength(1);
    expect((await ask()).json().data.refund.state).toBe('success');
    expect(gateways.alipay.trade(order.orderNo)?.refunds).toHaveLength(1);

    const tooMuch = await admin('owner', 'POST', refundUrl, {
      amount: 2001,
      reason: '再退',
      requestId: 'req-0002',
    });
    expect(tooMuch.json()).toMatchObject({
      code: 400,
      msg: '退款金额超过可退金额（还可退 20.00 元）',
      data: { field: 'amount' },
    });
    // Two different refunds at once that together pass what is left: one goes through, the other is refused.
    const race = await Promise.all(
      ['req-race-a', 'req-race-b'].map((requestId) =>
        admin('owner', 'POST', refundUrl, { amount: 1500, reason: '并发', requestId }),
      ),
    );
    expect(race.map((r) => r.json().code).sort()).toEqual([200, 400]);
    expect(gateways.alipay.trade(order.orderNo)?.refunds).toHaveLength(2);
    // Customer service does not refund (finance does: refunds.completed.test.ts).
    const support = await admin('support', 'POST', refundUrl, {
      amount: 100,
      reason: '试试',
      requestId: 'req-0003',
    });
    expect(support.statusCode).toBe(403);
    expect(gateways.alipay.trade(order.orderNo)?.refunds).toHaveLength(2);
    // Every answer of Alipay about the refund is kept with the order.
    const refunds = (await eventsOf(t.db, order.id)).filter((e) => e.source === 'refund');
    expect(refunds.length).toBeGreaterThan(0);
    for (const e of refunds)
      expect(e.detail).toMatch(/^alipay refund RF[0-9A-F]{24} (1000|1500) cents: success$/);
  });
});
