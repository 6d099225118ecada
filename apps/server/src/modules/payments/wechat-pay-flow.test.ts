// Paying through WeChat Pay (API v3, H5) end to end, against the WeChat Pay fake on loopback
// (test/fakes/wechat-pay-fake.ts) that signs and encrypts as WeChat Pay documents: pay apply to the H5 cashier, the
// encrypted notification to credit, duplicates and forgeries, a lost notification found by the reconciler.
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { type GatewayApp, gatewayAppPerFile, latestOrderOf } from '../../../test/real-gateways.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { registerVisitor } from '../../../test/visitors.ts';
import { applyUrl, balanceOf, demo, eventsOf, moneyState, orderByNo } from './payments.test-support.ts';

describeDb('paying through WeChat Pay (its fake on loopback)', () => {
  const app = gatewayAppPerFile();
  let t: TestApp;
  let gateways: GatewayApp['gateways'];
  let base: string;
  beforeAll(() => {
    ({ t, gateways, base } = app);
  });

  /** Pay apply for 3000 coins (+300) through wechat_h5 (9.5折: 2850 cents); the browser opens the H5 cashier. */
  async function apply() {
    const reader = await registerVisitor(t);
    const res = await t.app.inject({
      url: applyUrl({
        ...demo.coin3000,
        payChannel: 'wechat_h5',
        rechargerAmount: 2850,
        vueReturnUrl: '/home',
      }),
      headers: { cookie: reader.cookie },
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode, res.body).toBe(302);
    const location = String(res.headers.location);
    const order = await latestOrderOf(t, reader.userId);
    return { reader, order, location };
  }
  const notify = (n: { headers: Record<string, string>; body: string }) =>
    fetch(`${base}/api/pay/notify/wechat_pay`, { method: 'POST', headers: n.headers, body: n.body }).then(
      async (r) => ({ status: r.status, body: await r.text() }),
    );
  const success = (orderNo: string, overrides = {}, o = {}) =>
    gateways.wechatPay.forgeNotification(
      'TRANSACTION.SUCCESS',
      gateways.wechatPay.transactionResource(orderNo, overrides),
      o,
    );

  it('sends the reader to the H5 cashier and credits once WeChat Pay notifies the payment', async () => {
    const { reader, order, location } = await apply();
    const sent = new URL(location);
    expect(sent.origin).toBe(gateways.wechatPay.baseUrl);
    expect(sent.searchParams.get('redirect_url')).toBe('http://localhost:8080/home');
    const trade = gateways.wechatPay.trade(order.orderNo);
    expect(trade).toMatchObject({ orderNo: order.orderNo });
    const request = gateways.wechatPay.requests().at(-1) as unknown as { body: string };
    expect(JSON.parse(request.body)).toMatchObject({
      out_trade_no: order.orderNo,
      amount: { total: 2850, currency: 'CNY' },
      notify_url: `${base}/api/pay/notify/wechat_pay`,
      scene_info: { payer_client_ip: '203.0.113.7', h5_info: { type: 'Wap' } },
    });
    const cashier = await fetch(location);
    expect(cashier.status).toBe(200);
    expect(await cashier.text()).toContain('微信支付');

    gateways.wechatPay.pay(order.orderNo);
    await expect.poll(() => balanceOf(t.db, reader.userId), { timeout: 10_000 }).toBe(3300);
    const paid = await orderByNo(t.db, order.orderNo);
    expect(paid).toMatchObject({ status: 'paid', gateway: 'wechat_pay', channel: 'wechat_h5' });
    expect((await eventsOf(t.db, order.id)).at(-1)?.payload).toMatchObject({
      out_trade_no: order.orderNo,
      trade_state: 'SUCCESS',
    });
  });

  it('credits once when the same notification comes 100 times at once', async () => {
    const { reader, order } = await apply();
    gateways.wechatPay.dropNotifications(true);
    gateways.wechatPay.pay(order.orderNo);
    const one = success(order.orderNo);
    const answers = await Promise.all(Array.from({ length: 100 }, () => notify(one)));
    gateways.wechatPay.dropNotifications(false);
    expect(answers.every((a) => a.status === 204 || a.status === 200)).toBe(true);
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
  });

  it('refuses forged, stale, tampered and mistaken notifications, changing nothing', async () => {
    const { order } = await apply();
    gateways.wechatPay.dropNotifications(true);
    gateways.wechatPay.pay(order.orderNo);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const before = await moneyState(t.db);
    const refused = [
      success(order.orderNo, {}, { key: stranger.privateKey }),
      success(order.orderNo, {}, { serial: 'PUB_KEY_ID_0000000000000000000000000000' }),
      success(order.orderNo, {}, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }),
      success(order.orderNo, {}, { tamper: true }),
      success(order.orderNo, {}, { apiV3Key: 'x'.repeat(32) }),
      success(order.orderNo, { mchid: '1900000999' }),
      success(order.orderNo, { appid: 'wx9999999999999999' }),
      success(order.orderNo, {
        amount: { total: 1, payer_total: 1, currency: 'CNY', payer_currency: 'CNY' },
      }),
      success(order.orderNo, { out_trade_no: 'NO-SUCH-ORDER-000000000000' }),
    ];
    for (const n of refused) {
      const answer = await notify(n);
      expect(answer.status, n.body).toBeGreaterThanOrEqual(400);
      expect(JSON.parse(answer.body)).toEqual({ code: 'FAIL', message: '失败' });
    }
    gateways.wechatPay.dropNotifications(false);
    expect(await moneyState(t.db)).toEqual(before);
  });

  it('finds a payment whose notification was lost through the reconciler, and credits it once', async () => {
    const { reader, order } = await apply();
    gateways.wechatPay.dropNotifications(true);
    gateways.wechatPay.pay(order.orderNo);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    const later = new Date(Date.now() + 5 * 60_000);
    expect((await t.app.ports.payments.reconcile(later)).outcomes).toContain('credited');
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    expect((await t.app.ports.payments.reconcile(later)).outcomes).not.toContain('credited');
    expect(await notify(success(order.orderNo))).toMatchObject({ status: 204 });
    gateways.wechatPay.dropNotifications(false);
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
  });

  it('refunds through WeChat Pay once when the owner asks twice, and records its refund notification', async () => {
    const { admin } = await consoleOperators(t, ['owner']);
    const { order } = await apply();
    gateways.wechatPay.pay(order.orderNo);
    await expect
      .poll(async () => (await orderByNo(t.db, order.orderNo)).status, { timeout: 10_000 })
      .toBe('paid');
    const ask = () =>
      admin('owner', 'POST', `/api/admin/orders/${order.orderNo}/refunds`, {
        amount: 850,
        reason: '用户申请',
        requestId: 'wx-refund-0001',
      });
    const answers = await Promise.all([ask(), ask()]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(gateways.wechatPay.refunds()).toHaveLength(1);
    // WeChat Pay answers PROCESSING, then notifies the outcome to the refund's own address.
    await expect
      .poll(async () => (await eventsOf(t.db, order.id)).filter((e) => e.source === 'refund-notify').length, {
        timeout: 10_000,
      })
      .toBe(1);
    const noticed = (await eventsOf(t.db, order.id)).find((e) => e.source === 'refund-notify');
    expect(noticed?.detail).toMatch(/^wechat_pay refund RF[0-9A-F]{24}: success$/);
    expect((await ask()).json().data.refund).toMatchObject({ state: 'success', amount: 850 });
    expect(gateways.wechatPay.refunds()).toHaveLength(1);
  });
});
