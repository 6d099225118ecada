import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWechatPayFake, type WechatPayFake } from '../../../../test/fakes/wechat-pay-fake.ts';
import type { NotificationInput, PaymentRequest, RefundVerification, Verification } from './gateway.ts';
import {
  createWechatPayGateway,
  type WechatPayGateway,
  type WechatPayOptions,
} from './wechat-pay.gateway.ts';

// The adapter against the WeChat Pay fake, over loopback HTTP both ways: our signed requests to the fake, the
// fake's signed and sealed notifications to a receiver standing in for POST /api/pay/notify/wechat_pay.
const MCHID = '1900009191';
const APPID = 'wxd678efh567hg6787';
const SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
const API_V3_KEY = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6';
// Deliveries travel over loopback while both test projects share 2 cores: generous, though they take milliseconds.
const ARRIVES = { timeout: 10_000, interval: 20 };

const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchantPem = merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('WeChat Pay gateway (API v3) against its fake', () => {
  let fake: WechatPayFake;
  let gateway: WechatPayGateway;
  let receiver: Server;
  let notifyBase = '';
  const payments: { input: NotificationInput; result: Verification }[] = [];
  const refunds: { input: NotificationInput; result: RefundVerification }[] = [];
  // /flaky answers the first few deliveries with 503, as a server that is briefly down would.
  let flakyFailures = 2;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const input = {
          channel: 'wechat_pay',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        let ok: boolean;
        if (req.url === '/flaky' && flakyFailures > 0) {
          flakyFailures -= 1;
          res.writeHead(503).end();
          return;
        }
        if (req.url === '/refund') {
          const result = await gateway.verifyRefundNotification(input);
          refunds.push({ input, result });
          ok = result.ok;
        } else {
          const result = await gateway.verifyNotification(input);
          payments.push({ input, result });
          ok = result.ok;
        }
        const ack = gateway.acknowledge(ok);
        res.writeHead(ack.status, { 'content-type': ack.contentType }).end(ack.body);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    notifyBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    fake = await startWechatPayFake({
      mchid: MCHID,
      appid: APPID,
      merchantSerial: SERIAL,
      merchantPublicKey: merchant.publicKey,
      apiV3Key: API_V3_KEY,
    });
    gateway = createWechatPayGateway(settings());
  });
  afterAll(async () => {
    await fake?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  /** Our merchant's settings, with the fake's WeChat Pay public key and address. */
  const settings = (): WechatPayOptions => ({
    mchid: MCHID,
    appid: APPID,
    serial: SERIAL,
    privateKey: merchantPem,
    apiV3Key: API_V3_KEY,
    platformPublicKey: fake.platformPublicKeyPem,
    platformPublicKeyId: fake.platformPublicKeyId,
    baseUrl: fake.baseUrl,
  });
  const newOrderNo = () => `YM20261101${randomBytes(8).toString('hex').toUpperCase()}`;
  const order = (orderNo: string, over: Partial<PaymentRequest & { clientIp: string }> = {}) => ({
    orderNo,
    channel: 'wechat_pay',
    superiorCode: 'wechat_pay',
    amount: 2850,
    subject: '3000 阅币',
    expiresAt: new Date('2026-11-01T00:15:00Z'),
    client: 'web' as const,
    notifyUrl: `${notifyBase}/notify`,
    returnUrl: 'https://yueman.example/home?paid=1',
    clientIp: '203.0.113.7',
    ...over,
  });
  /** An order created at the fake, unpaid. */
  async function created(over: Partial<PaymentRequest> = {}) {
    const orderNo = newOrderNo();
    await gateway.createPayment(order(orderNo, over));
    return orderNo;
  }
  const verify = (n: { headers: Record<string, string>; body: string }) =>
    gateway.verifyNotification({ channel: 'wechat_pay', headers: n.headers, body: n.body });

  it('creates an H5 order the fake accepts, and sends the payer to its h5_url with our return address', async () => {
    const orderNo = newOrderNo();
    const start = await gateway.createPayment(order(orderNo));
    expect(start.kind).toBe('redirect');
    const url = new URL(start.kind === 'redirect' ? start.url : '');
    expect(url.origin + url.pathname).toBe(`${fake.baseUrl}/cgi-bin/mmpayweb-bin/checkmweb`);
    expect(url.searchParams.get('prepay_id')).toBe(fake.trade(orderNo)?.prepayId);
    expect(url.searchParams.get('redirect_url')).toBe('https://yueman.example/home?paid=1');

    const request = fake.requests().at(-1);
    expect(request).toMatchObject({ method: 'POST', path: '/v3/pay/transactions/h5', status: 200 });
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      appid: APPID,
      mchid: MCHID,
      description: '3000 阅币',
      out_trade_no: orderNo,
      time_expire: '2026-11-01T08:15:00+08:00',
      notify_url: `${notifyBase}/notify`,
      amount: { total: 2850, currency: 'CNY' },
      scene_info: { payer_client_ip: '203.0.113.7', h5_info: { type: 'Wap' } },
    });

    const app = await gateway.createPayment(order(newOrderNo(), { client: 'app' }));
    expect(app.kind).toBe('app');
  });

  it('is refused by the fake when our key is not the one registered (401 SIGN_ERROR, unsigned)', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const impostor = createWechatPayGateway({
      ...settings(),
      privateKey: other.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    await expect(impostor.createPayment(order(newOrderNo()))).rejects.toMatchObject({
      status: 401,
      code: 'SIGN_ERROR',
    });
  });

  it('verifies and decrypts the notification the fake sends when the payer confirms, and acknowledges it', async () => {
    const orderNo = await created();
    const trade = fake.pay(orderNo);
    const got = await vi.waitFor(() => {
      const found = payments.map((p) => p.result).find((r) => r.ok && r.notification.orderNo === orderNo);
      expect(found).toBeDefined();
      // The fake records the acknowledgement once our answer reaches it, a moment after we verified.
      expect(fake.notifications().at(-1)).toMatchObject({
        eventType: 'TRANSACTION.SUCCESS',
        acknowledged: true,
      });
      return found;
    }, ARRIVES);
    expect(
      fake
        .notifications()
        .at(-1)
        ?.attempts.map((a) => a.status),
    ).toEqual([204]);
    expect(got).toMatchObject({
      ok: true,
      notification: {
        orderNo,
        tradeNo: trade.transactionId,
        amount: 2850,
        merchantId: MCHID,
        paid: true,
        state: 'SUCCESS',
        raw: { appid: APPID, mchid: MCHID, out_trade_no: orderNo, trade_state: 'SUCCESS' },
      },
    });
  });

  it("walks the fake's cashier: 微信支付, the amount, 确认支付, then back to our return address", async () => {
    const orderNo = newOrderNo();
    const start = await gateway.createPayment(order(orderNo, { amount: 600 }));
    const page = await fetch(start.kind === 'redirect' ? start.url : '');
    const html = await page.text();
    expect(html).toContain('微信支付');
    expect(html).toContain('¥6.00');
    expect(html).toContain('确认支付');
    const form = new URLSearchParams({
      prepay_id: /name="prepay_id" value="([^"]+)"/.exec(html)?.[1] ?? '',
      redirect_url: 'https://yueman.example/home?paid=1',
    });
    const confirmed = await fetch(`${fake.baseUrl}/cgi-bin/mmpayweb-bin/confirm`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toBe('https://yueman.example/home?paid=1');
    await vi.waitFor(
      () => expect(payments.some((p) => p.result.ok && p.result.notification.orderNo === orderNo)).toBe(true),
      ARRIVES,
    );
  });

  it('is sent the notification again until it acknowledges it', async () => {
    const orderNo = await created({ notifyUrl: `${notifyBase}/flaky` });
    fake.pay(orderNo);
    await vi.waitFor(() => expect(fake.notifications().at(-1)?.acknowledged).toBe(true), ARRIVES);
    expect(
      fake
        .notifications()
        .at(-1)
        ?.attempts.map((a) => a.status),
    ).toEqual([503, 503, 204]);
    expect(gateway.acknowledge(false)).toEqual({
      status: 500,
      contentType: 'application/json; charset=utf-8',
      body: '{"code":"FAIL","message":"失败"}',
    });
  });

  it('refuses forged, stale, tampered and foreign notifications, each with its reason', async () => {
    const orderNo = await created();
    fake.pay(orderNo);
    const paid = fake.transactionResource(orderNo);
    const wrongKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 360;
    const cases = [
      {
        name: 'forged signature',
        n: fake.forgeNotification('TRANSACTION.SUCCESS', paid, { key: wrongKey }),
        reason: /bad signature/,
      },
      {
        name: 'unknown serial',
        n: fake.forgeNotification('TRANSACTION.SUCCESS', paid, { serial: 'PUB_KEY_ID_0000' }),
        reason: /unknown Wechatpay-Serial/,
      },
      {
        name: 'stale timestamp',
        n: fake.forgeNotification('TRANSACTION.SUCCESS', paid, { timestamp: sixMinutesAgo }),
        reason: /stale/,
      },
      {
        name: 'tampered ciphertext',
        n: fake.forgeNotification('TRANSACTION.SUCCESS', paid, { tamper: true }),
        reason: /does not decrypt/,
      },
      {
        name: 'another APIv3 key',
        n: fake.forgeNotification('TRANSACTION.SUCCESS', paid, { apiV3Key: 'Z'.repeat(32) }),
        reason: /does not decrypt/,
      },
      {
        name: 'wrong mchid',
        n: fake.forgeNotification('TRANSACTION.SUCCESS', { ...paid, mchid: '1900000001' }),
        reason: /mchid "1900000001" is not ours/,
      },
      {
        name: 'wrong appid',
        n: fake.forgeNotification('TRANSACTION.SUCCESS', { ...paid, appid: 'wx0000000000000000' }),
        reason: /appid "wx0000000000000000" is not ours/,
      },
    ];
    for (const c of cases) {
      const result = await verify(c.n);
      expect({ name: c.name, ok: result.ok }).toEqual({ name: c.name, ok: false });
      if (!result.ok) expect(result.reason, c.name).toMatch(c.reason);
    }
    const unsigned = fake.forgeNotification('TRANSACTION.SUCCESS', paid);
    const bare = Object.fromEntries(
      Object.entries(unsigned.headers).filter(([k]) => !k.startsWith('wechatpay-')),
    );
    expect(await verify({ headers: bare, body: unsigned.body })).toEqual({
      ok: false,
      reason: 'no Wechatpay-Signature',
    });
    // The genuine article still passes, so each refusal above is for its own reason.
    expect((await verify(fake.forgeNotification('TRANSACTION.SUCCESS', paid))).ok).toBe(true);
  });

  it('verifies a notification whose trade_state is NOTPAY as not paid', async () => {
    const orderNo = await created();
    const result = await verify(
      fake.forgeNotification('TRANSACTION.SUCCESS', fake.transactionResource(orderNo)),
    );
    expect(result).toMatchObject({
      ok: true,
      notification: { orderNo, paid: false, state: 'NOTPAY', tradeNo: '' },
    });
  });

  it('queries an order: paid, unpaid, closed, not found', async () => {
    const paidNo = await created();
    const trade = fake.pay(paidNo);
    expect(await gateway.queryPayment(paidNo)).toMatchObject({
      state: 'paid',
      notification: {
        orderNo: paidNo,
        tradeNo: trade.transactionId,
        amount: 2850,
        merchantId: MCHID,
        paid: true,
      },
      raw: { trade_state: 'SUCCESS' },
    });
    const unpaidNo = await created();
    expect(await gateway.queryPayment(unpaidNo)).toMatchObject({
      state: 'unpaid',
      raw: { trade_state: 'NOTPAY' },
    });
    fake.setTradeState(unpaidNo, 'CLOSED');
    expect(await gateway.queryPayment(unpaidNo)).toMatchObject({
      state: 'closed',
      raw: { trade_state: 'CLOSED' },
    });
    expect(await gateway.queryPayment(newOrderNo())).toMatchObject({
      state: 'not_found',
      raw: { code: 'ORDER_NOT_EXIST' },
    });
  });

  it('refuses an answer whose signature is broken', async () => {
    const orderNo = await created();
    fake.breakAnswerSignatures(true);
    try {
      await expect(gateway.queryPayment(orderNo)).rejects.toThrow(/answer refused: bad signature/);
      await expect(gateway.queryPayment(newOrderNo())).rejects.toThrow(/answer refused: bad signature/);
      await expect(gateway.createPayment(order(newOrderNo()))).rejects.toThrow(/answer refused/);
    } finally {
      fake.breakAnswerSignatures(false);
    }
  });

  it('refunds once when asked twice with one refund number, and verifies the refund notification', async () => {
    const orderNo = await created();
    const trade = fake.pay(orderNo);
    const request = {
      orderNo,
      tradeNo: trade.transactionId ?? '',
      refundNo: `RF${orderNo}`,
      amount: 2850,
      total: 2850,
      reason: '读者申请退款',
      notifyUrl: `${notifyBase}/refund`,
    };
    const first = await gateway.refund(request);
    const second = await gateway.refund(request);
    expect(first).toMatchObject({ state: 'processing' });
    expect(second.state === 'success' || second.state === 'processing').toBe(true);
    const refundId = first.state === 'failed' ? undefined : first.refundTradeNo;
    expect(second).toMatchObject({ refundTradeNo: refundId });
    expect(fake.refunds().filter((r) => r.orderNo === orderNo)).toHaveLength(1);

    await vi.waitFor(
      () => expect(refunds.find((r) => r.result.ok && r.result.refund.orderNo === orderNo)).toBeDefined(),
      ARRIVES,
    );
    const notified = refunds.find((r) => r.result.ok && r.result.refund.orderNo === orderNo)?.result;
    expect(notified).toEqual({
      ok: true,
      refund: {
        orderNo,
        refundNo: `RF${orderNo}`,
        refundTradeNo: refundId,
        state: 'success',
        amount: 2850,
        raw: expect.objectContaining({ mchid: MCHID, refund_status: 'SUCCESS' }),
      },
    });
    expect(await gateway.queryPayment(orderNo)).toMatchObject({
      state: 'closed',
      raw: { trade_state: 'REFUND' },
    });

    const more = await gateway.refund({ ...request, refundNo: `RG${orderNo}`, amount: 1 });
    expect(more).toMatchObject({ state: 'failed', reason: /INVALID_REQUEST/ });
    const forged = fake.forgeNotification(
      'REFUND.SUCCESS',
      fake.refundResource(`RF${orderNo}`, { mchid: '1900000001' }),
    );
    expect(await gateway.verifyRefundNotification({ channel: 'wechat_pay', ...forged })).toMatchObject({
      ok: false,
      reason: /mchid/,
    });
  });

  it('says plainly which key is wrong when it is configured', () => {
    const base = settings();
    const ownPublic = merchant.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(() => createWechatPayGateway({ ...base, apiV3Key: 'short' })).toThrow(/APIv3 key/);
    expect(() => createWechatPayGateway({ ...base, privateKey: 'nonsense' })).toThrow(/merchant private key/);
    expect(() =>
      createWechatPayGateway({
        ...base,
        privateKey: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    ).toThrow(/not an RSA key/);
    expect(() => createWechatPayGateway({ ...base, platformPublicKey: merchantPem })).toThrow(
      /holds a private key/,
    );
    expect(() => createWechatPayGateway({ ...base, platformPublicKey: ownPublic })).toThrow(
      /own public half/,
    );
    expect(() => createWechatPayGateway({ ...base, platformPublicKeyId: ' ' })).toThrow(
      /platformPublicKeyId/,
    );
  });
});
