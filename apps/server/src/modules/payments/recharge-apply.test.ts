import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { payChannels, payConfigs, payOrders, sandboxPayments } from '../../db/schema/index.ts';
import { applyUrl, applyWeb, demo, eventsOf, orderByNo } from './payments.test-support.ts';

describeDb('recharge centre and pay apply', () => {
  let t: TestApp;
  let reader: Awaited<ReturnType<typeof registerVisitor>>;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    reader = await registerVisitor(t);
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  const ordersCount = async () => (await t.db.select().from(payOrders)).length;

  it('answers packs, web channels with discounts, user info and the balance (wap_browser)', async () => {
    const res = await t.app.inject({
      url: '/api/user/recharge?appType=wap_browser',
      headers: { cookie: reader.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data, result, code } = res.json();
    expect({ result, code }).toEqual({ result: true, code: 200 });
    expect(data.userInfo).toMatchObject({ userId: reader.userId, account: reader.account, vipType: 'none' });
    expect(data.availableAmount).toBe(0);
    expect(data.userInfo.avaliableAmount).toBe(0);
    expect(data.payConfigs.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(data.payConfigs[1]).toEqual({
      id: 2,
      type: 'coin',
      amountLevel: 3000,
      itemCount: 3000,
      presentCount: 300,
      title: '3000阅币',
      configDesc: '充30元，加赠300阅币',
      isDefault: 'Y',
      isRecommend: 'N',
      initiatorCode: 'default',
    });
    expect(data.payConfigs[4]).toMatchObject({ type: 'vip', itemCount: 30, isDefault: 'N' });
    expect(data.subTypes).toEqual([
      {
        subTypeCode: 'alipay_wap',
        superiorCode: 'alipay',
        initiatorCode: 'default',
        subTypeDesc: '支付宝',
        discount: 10,
      },
      {
        subTypeCode: 'wechat_h5',
        superiorCode: 'wechat_pay',
        initiatorCode: 'default',
        subTypeDesc: '微信支付',
        discount: 9.5,
      },
      {
        subTypeCode: 'unionpay',
        superiorCode: 'bank',
        initiatorCode: 'default',
        subTypeDesc: '银联/银行卡',
        discount: 9.8,
      },
    ]);
    // Without appType the client is a mobile browser.
    const plain = await t.app.inject({ url: '/api/user/recharge', headers: { cookie: reader.cookie } });
    expect(plain.json().data.subTypes).toEqual(data.subTypes);
  });

  it('offers app channels to the app shell, hides inactive packs and channels, and needs a session', async () => {
    const shell = await t.app.inject({
      url: '/api/user/recharge?appType=shell',
      headers: { cookie: reader.cookie },
    });
    expect(shell.json().data.subTypes.map((s: { subTypeCode: string }) => s.subTypeCode)).toEqual([
      'alipay_app',
      'wechat_app',
      'unionpay',
    ]);
    await t.db.update(payConfigs).set({ active: false }).where(eq(payConfigs.id, 7));
    await t.db.update(payChannels).set({ active: false }).where(eq(payChannels.subTypeCode, 'unionpay'));
    try {
      const after = (
        await t.app.inject({ url: '/api/user/recharge?appType=shell', headers: { cookie: reader.cookie } })
      ).json();
      expect(after.data.payConfigs.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 8]);
      expect(after.data.subTypes.map((s: { subTypeCode: string }) => s.subTypeCode)).toEqual([
        'alipay_app',
        'wechat_app',
      ]);
    } finally {
      await t.db.update(payConfigs).set({ active: true }).where(eq(payConfigs.id, 7));
      await t.db.update(payChannels).set({ active: true }).where(eq(payChannels.subTypeCode, 'unionpay'));
    }
    const anonymous = await t.app.inject({ url: '/api/user/recharge' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ result: false, code: 401 });
    const badType = await t.app.inject({
      url: '/api/user/recharge?appType=desktop',
      headers: { cookie: reader.cookie },
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().msg).toContain('appType');
  });

  it('refuses apply without a session (401) and for another user id (403), making no order', async () => {
    const params = { ...demo.coin3000, payChannel: 'wechat_h5', rechargerAmount: 2850 };
    const anonymous = await t.app.inject({ url: applyUrl(params) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ result: false, code: 401, data: null });
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const other = await t.app.inject({
      url: applyUrl({ ...params, userId: reader.userId + 1000 }),
      headers: { cookie: reader.cookie },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ result: false, code: 403 });
    const header = await t.app.inject({
      url: applyUrl(params),
      headers: { cookie: reader.cookie, 'x-user-id': String(reader.userId + 1) },
    });
    expect(header.statusCode).toBe(403);
    expect(await ordersCount()).toBe(0);
  });

  it('refuses a wrong amount, pack, purpose or channel with 400 naming the field', async () => {
    const base = { ...demo.coin3000, payChannel: 'wechat_h5', rechargerAmount: 2850 };
    const cases: [Partial<Parameters<typeof applyUrl>[0]>, string][] = [
      // The pack's price without the 9.5折 discount, and one cent off.
      [{ rechargerAmount: 3000 }, 'rechargerAmount'],
      [{ rechargerAmount: 2849 }, 'rechargerAmount'],
      [{ payPurposeId: 999 }, 'payPurposeId'],
      [{ payPurpose: 'vip' }, 'payPurpose'],
      [{ payChannel: 'nope' }, 'payChannel'],
      // An app channel from a mobile browser.
      [{ payChannel: 'wechat_app' }, 'payChannel'],
      [{ rechargerAmount: -5 }, 'rechargerAmount'],
      [{ appType: 'desktop' }, 'appType'],
    ];
    for (const [change, field] of cases) {
      const res = await t.app.inject({
        url: applyUrl({ ...base, ...change }),
        headers: { cookie: reader.cookie },
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json()).toMatchObject({ result: false, code: 400 });
      expect(res.json().msg).toContain(field);
    }
    const missing = await t.app.inject({
      url: '/h5/pay/apply?payChannel=wechat_h5',
      headers: { cookie: reader.cookie },
    });
    expect(missing.statusCode).toBe(400);

    await t.db.update(payConfigs).set({ active: false }).where(eq(payConfigs.id, 2));
    await t.db.update(payChannels).set({ active: false }).where(eq(payChannels.subTypeCode, 'alipay_wap'));
    try {
      const inactivePack = await t.app.inject({ url: applyUrl(base), headers: { cookie: reader.cookie } });
      expect(inactivePack.statusCode).toBe(400);
      expect(inactivePack.json().msg).toContain('payPurposeId');
      const inactiveChannel = await t.app.inject({
        url: applyUrl({ ...base, payChannel: 'alipay_wap', rechargerAmount: 3000, payPurposeId: 3 }),
        headers: { cookie: reader.cookie },
      });
      expect(inactiveChannel.statusCode).toBe(400);
      expect(inactiveChannel.json().msg).toContain('payChannel');
    } finally {
      await t.db.update(payConfigs).set({ active: true }).where(eq(payConfigs.id, 2));
      await t.db.update(payChannels).set({ active: true }).where(eq(payChannels.subTypeCode, 'alipay_wap'));
    }
    expect(await ordersCount()).toBe(0);
  });

  it('sends a web channel to the sandbox cashier (302) with an order that keeps what an operator needs', async () => {
    const res = await t.app.inject({
      url: applyUrl({
        ...demo.coin3000,
        payChannel: 'wechat_h5',
        rechargerAmount: 2850,
        userId: reader.userId,
        vueReturnUrl: '/user?paid=1',
      }),
      headers: { cookie: reader.cookie, 'x-trace-id': 'trace-apply-0001', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.location).toMatch(/^http:\/\/localhost:8080\/sandbox-pay\/cashier\/SB[0-9A-F]{24}$/);
    const tradeNo = String(res.headers.location).split('/').pop() ?? '';
    const [payment] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.tradeNo, tradeNo));
    expect(payment).toMatchObject({
      amount: 2850,
      merchantId: 'ym-sandbox',
      channel: 'wechat_h5',
      status: 'shown',
      returnUrl: 'http://localhost:8080/user?paid=1',
      notifyUrl: 'http://127.0.0.1:8080/api/pay/notify/wechat_h5',
    });
    const order = await orderByNo(t.db, payment?.orderNo ?? '');
    expect(order.orderNo).toMatch(/^YM\d{8}[0-9A-F]{16}$/);
    expect(order).toMatchObject({
      userId: reader.userId,
      payConfigId: 2,
      purpose: 'coin',
      channel: 'wechat_h5',
      gateway: 'sandbox',
      amountLevel: 3000,
      payAmount: 2850,
      itemCount: 3000,
      presentCount: 300,
      status: 'created',
      traceId: 'trace-apply-0001',
      clientIp: '127.0.0.1', // TRUST_PROXY is off: the forged X-Forwarded-For is ignored
      branchId: -2,
      appType: 'wap_browser',
      fromDomain: 'm.example.com',
      returnUrl: 'http://localhost:8080/user?paid=1',
      paidAt: null,
      gatewayTradeNo: null,
    });
    const minutes = (order.expiresAt.getTime() - order.createdAt.getTime()) / 60_000;
    expect(minutes).toBe(15);
    expect(await eventsOf(t.db, order.id)).toMatchObject([
      { fromStatus: null, toStatus: 'created', source: 'apply' },
    ]);
  });

  it('replaces a return address off the public origin by /home (no open redirect)', async () => {
    for (const evil of [
      'https://evil.example/steal',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const { order } = await applyWeb(t, reader.cookie, demo.coin600, 570, { vueReturnUrl: evil });
      expect(order.returnUrl, evil).toBe('http://localhost:8080/home');
    }
    const { order } = await applyWeb(t, reader.cookie, demo.coin600, 570, {
      vueReturnUrl: 'http://localhost:8080/home?from=pay',
    });
    expect(order.returnUrl).toBe('http://localhost:8080/home?from=pay');
    const { order: none } = await applyWeb(t, reader.cookie, demo.coin600, 570);
    expect(none.returnUrl).toBe('http://localhost:8080/home');
  });

  it('answers an app channel (shell, ios_desk) with JSON for the native bridge', async () => {
    for (const appType of ['shell', 'ios_desk']) {
      const res = await t.app.inject({
        url: applyUrl({ ...demo.vip30, payChannel: 'alipay_app', rechargerAmount: 3000, appType }),
        headers: { cookie: reader.cookie },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ result: true, code: 200 });
      expect(body.data).toMatchObject({ payChannel: 'alipay_app', superiorCode: 'alipay', payAmount: 3000 });
      expect(body.data.payUrl).toMatch(/^http:\/\/localhost:8080\/sandbox-pay\/cashier\/SB[0-9A-F]{24}$/);
      const order = await orderByNo(t.db, body.data.orderNo);
      expect(order).toMatchObject({
        appType,
        purpose: 'vip',
        itemCount: 30,
        presentCount: 0,
        status: 'created',
      });
      expect(new Date(body.data.expiresAt).getTime()).toBe(order.expiresAt.getTime());
    }
  });

  it('POST /api/pay/pay finds the one pack of that purpose and price, and answers JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pay/pay?payChannel=unionpay&payPurpose=coin&rechargerAmount=588',
      headers: { cookie: reader.cookie },
    });
    expect(res.statusCode).toBe(200);
    const order = await orderByNo(t.db, res.json().data.orderNo);
    expect(order).toMatchObject({ payConfigId: 1, payAmount: 588, amountLevel: 600, channel: 'unionpay' });
    const noPack = await t.app.inject({
      method: 'POST',
      url: '/api/pay/pay?payChannel=unionpay&payPurpose=coin&rechargerAmount=600',
      headers: { cookie: reader.cookie },
    });
    expect(noPack.statusCode).toBe(400);
    expect(noPack.json().msg).toContain('rechargerAmount');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/pay/pay?payChannel=unionpay&payPurpose=coin&rechargerAmount=588',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
