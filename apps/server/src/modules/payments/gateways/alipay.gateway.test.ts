import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AlipayFake,
  makeAlipayKeys,
  makeRsaKeyPair,
  startAlipayFake,
} from '../../../../test/fakes/alipay-fake.ts';
import { alipayTime, centsOf, createAlipayGateway, yuanOf } from './alipay.gateway.ts';
import type { PaymentGateway, PaymentRequest, Verification } from './gateway.ts';

// Adapter-level: our Alipay adapter against the Alipay fake over loopback, no database.
const APP_ID = '2021000000000001';
const SELLER_ID = '2088000000000001';
const FORM = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };

/** Our notify endpoint in miniature: verifies with the adapter and answers what the adapter says to. */
async function startReceiver(gateway: () => PaymentGateway) {
  const verified: Verification[] = [];
  let wrongAnswers = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString('utf8');
    const verification = await gateway().verifyNotification({
      channel: 'alipay',
      headers: req.headers,
      body,
    });
    verified.push(verification);
    // Almost right is wrong: Alipay wants exactly `success`.
    const ack =
      wrongAnswers > 0
        ? { status: 200, contentType: 'text/plain', body: wrongAnswers-- % 2 ? 'SUCCESS' : 'success\n' }
        : gateway().acknowledge(verification.ok);
    res.writeHead(ack.status, { 'content-type': ack.contentType });
    res.end(ack.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pay/notify/alipay`,
    verified,
    answerWrongly(times: number) {
      wrongAnswers = times;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the Alipay gateway against the Alipay fake', () => {
  // The app's private key as PKCS#1, the other form the adapter must read.
  const keys = makeAlipayKeys('pkcs1');
  let fake: AlipayFake;
  let gateway: PaymentGateway;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const returnUrl = 'http://127.0.0.1:9/pay-return?from=alipay';

  beforeAll(async () => {
    fake = await startAlipayFake({
      appId: APP_ID,
      appPublicKey: keys.app.publicKey,
      alipayKeys: keys.alipay,
      sellerId: SELLER_ID,
    });
    gateway = createAlipayGateway({
      appId: APP_ID,
      privateKey: keys.app.privateKey,
      alipayPublicKey: fake.alipayPublicKey,
      gateway: fake.gateway,
      sellerId: SELLER_ID,
    });
    receiver = await startReceiver(() => gateway);
  });
  afterAll(async () => {
    await fake?.close();
    await receiver?.close();
  });

  const order = (extra: Partial<PaymentRequest> = {}): PaymentRequest => ({
    orderNo: `YM20250101${randomBytes(8).toString('hex')}`,
    channel: 'alipay',
    superiorCode: 'alipay',
    amount: 1234,
    subject: '1000 书币',
    expiresAt: new Date(Date.now() + 15 * 60_000),
    client: 'web',
    notifyUrl: receiver.url,
    returnUrl,
    ...extra,
  });

  /** An order the payer has opened at Alipay's cashier (so Alipay knows the trade). */
  async function opened(extra: Partial<PaymentRequest> = {}) {
    const request = order(extra);
    const start = await gateway.createPayment(request);
    const url = start.kind === 'redirect' ? start.url : start.payUrl;
    const res = await fetch(url);
    return { request, url, res, html: await res.text() };
  }

  const verify = (body: string) => gateway.verifyNotification({ channel: 'alipay', headers: FORM, body });

  it('money and time go to Alipay exactly: yuan from cents, cents from yuan, China time', () => {
    expect([1, 7, 10, 1999, 123456].map(yuanOf)).toEqual(['0.01', '0.07', '0.10', '19.99', '1234.56']);
    // 19.99 * 100 is 1998.9999999999998 in floating point; the parse never goes through a float.
    expect(['0.07', '19.99', '1.1', '20', '0.01', '100000000.00'].map(centsOf)).toEqual([
      7, 1999, 110, 2000, 1, 10_000_000_000,
    ]);
    for (const bad of ['', '1e3', '-1', '1.001', '01.00', ' 1.00', '1,00', '0x10', '.5'])
      expect(centsOf(bad), bad).toBeUndefined();
    expect(alipayTime(new Date('2025-01-01T16:30:05Z'))).toBe('2025-01-02 00:30:05');
  });

  it('createPayment: a GET URL the fake accepts, whose cashier shows the amount', async () => {
    const request = order({ amount: 1999 });
    const start = await gateway.createPayment(request);
    expect(start.kind).toBe('redirect');
    const url = new URL(start.kind === 'redirect' ? start.url : '');
    expect(`${url.origin}${url.pathname}`).toBe(fake.gateway);
    const params = url.searchParams;
    expect(params.get('method')).toBe('alipay.trade.wap.pay');
    expect(params.get('sign_type')).toBe('RSA2');
    expect(params.get('app_id')).toBe(APP_ID);
    expect(params.get('notify_url')).toBe(receiver.url);
    expect(params.get('return_url')).toBe(returnUrl);
    expect(JSON.parse(params.get('biz_content') ?? '')).toMatchObject({
      out_trade_no: request.orderNo,
      total_amount: '19.99',
      subject: '1000 书币',
      product_code: 'QUICK_WAP_WAY',
      time_expire: alipayTime(request.expiresAt),
    });

    const res = await fetch(url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('支付宝');
    expect(html).toContain('收银台');
    expect(html).toContain('¥19.99');
    expect(html).toContain('确认付款');
    expect(fake.trade(request.orderNo)).toMatchObject({ status: 'WAIT_BUYER_PAY', cents: 1999 });

    const app = await gateway.createPayment(order({ client: 'app' }));
    expect(app.kind).toBe('app');
  });

  it('the fake refuses a pay URL changed after signing', async () => {
    const start = await gateway.createPayment(order());
    const url = new URL(start.kind === 'redirect' ? start.url : '');
    const biz = JSON.parse(url.searchParams.get('biz_content') ?? '{}');
    url.searchParams.set('biz_content', JSON.stringify({ ...biz, total_amount: '0.01' }));
    const res = await fetch(url);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('isv.invalid-signature');
  });

  it('确认付款 at the cashier: paid, notified until the answer is exactly success, the payer sent back', async () => {
    const { request, html } = await opened();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    expect(action).toBeDefined();
    receiver.answerWrongly(2);
    const res = await fetch(new URL(action ?? '', fake.origin), { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe('http://127.0.0.1:9/pay-return');
    expect(back.searchParams.get('from')).toBe('alipay');
    expect(back.searchParams.get('method')).toBe('alipay.trade.wap.pay.return');
    expect(back.searchParams.get('out_trade_no')).toBe(request.orderNo);
    expect(back.searchParams.get('sign')).toBeTruthy();

    await fake.settled();
    const sent = fake.notifications().filter((n) => n.outTradeNo === request.orderNo);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.acknowledged).toBe(true);
    expect(sent[0]?.attempts.map((a) => a.body)).toEqual(['success\n', 'SUCCESS', 'success']);
    const trade = fake.trade(request.orderNo);
    expect(receiver.verified.at(-1)).toEqual({
      ok: true,
      notification: expect.objectContaining({
        orderNo: request.orderNo,
        tradeNo: trade?.tradeNo,
        amount: 1234,
        merchantId: APP_ID,
        paid: true,
        state: 'TRADE_SUCCESS',
      }),
    });
  });

  it('a notification signed by the fake verifies with the right fields and cents', async () => {
    const { request } = await opened({ amount: 1999 });
    const trade = fake.pay(request.orderNo);
    await fake.settled();
    const { body, fields } = fake.signNotification(fake.notificationFields(request.orderNo));
    const result = await verify(body);
    expect(result).toEqual({
      ok: true,
      notification: {
        orderNo: request.orderNo,
        tradeNo: trade.tradeNo,
        amount: 1999,
        merchantId: APP_ID,
        paid: true,
        state: 'TRADE_SUCCESS',
        raw: expect.objectContaining({ total_amount: '19.99', seller_id: SELLER_ID, sign_type: 'RSA2' }),
      },
    });
    expect(result.ok && result.notification.raw).not.toHaveProperty('sign');
    expect(fields.sign).toBeTruthy();
  });

  it('refuses, each with its reason: a forger, RSA1, another app, another seller, a changed amount, a missing field', async () => {
    const { request } = await opened();
    fake.pay(request.orderNo);
    await fake.settled();
    const fields = fake.notificationFields(request.orderNo);
    const { total_amount: _amount, ...withoutAmount } = fields;
    const genuine = fake.signNotification(fields).body;
    const cases: [string, string, RegExp][] = [
      ['forged signature', fake.signNotification(fields, makeRsaKeyPair().privateKey).body, /bad signature/],
      // Signed with Alipay's real key, but RSA (SHA-1): the SDK alone would accept it.
      ['sign_type RSA', fake.signNotification({ ...fields, sign_type: 'RSA' }).body, /sign_type RSA refused/],
      [
        'another app',
        fake.signNotification({ ...fields, app_id: '2021000000000999' }).body,
        /app_id 2021000000000999/,
      ],
      [
        'another seller',
        fake.signNotification({ ...fields, seller_id: '2088999999999999' }).body,
        /seller_id 2088999999999999/,
      ],
      [
        'amount changed after signing',
        genuine.replace('total_amount=12.34', 'total_amount=0.01'),
        /bad signature/,
      ],
      ['total_amount missing', fake.signNotification(withoutAmount).body, /field total_amount missing/],
      ['sign missing', new URLSearchParams(fields).toString(), /field sign missing/],
      ['a field repeated', `${genuine}&total_amount=0.01`, /total_amount repeated/],
    ];
    expect(genuine).toContain('total_amount=12.34');
    for (const [name, body, reason] of cases) {
      const result = await verify(body);
      expect(result.ok, name).toBe(false);
      expect(result.ok ? '' : result.reason, name).toMatch(reason);
    }
    expect((await verify(genuine)).ok).toBe(true);
  });

  it('trade_status WAIT_BUYER_PAY verifies, but as not paid', async () => {
    const { request } = await opened();
    const { body } = fake.signNotification(
      fake.notificationFields(request.orderNo, { trade_status: 'WAIT_BUYER_PAY' }),
    );
    const result = await verify(body);
    expect(result.ok && result.notification).toMatchObject({
      paid: false,
      state: 'WAIT_BUYER_PAY',
      amount: 1234,
    });
  });

  it('queryPayment: paid, unpaid, closed and unknown orders', async () => {
    const paid = await opened();
    const trade = fake.pay(paid.request.orderNo);
    await fake.settled();
    const unpaid = await opened();
    const closed = await opened();
    fake.closeTrade(closed.request.orderNo);

    const answer = await gateway.queryPayment?.(paid.request.orderNo);
    expect(answer).toMatchObject({
      state: 'paid',
      notification: {
        orderNo: paid.request.orderNo,
        tradeNo: trade.tradeNo,
        amount: 1234,
        merchantId: APP_ID,
        paid: true,
        state: 'TRADE_SUCCESS',
      },
      raw: { code: '10000', trade_status: 'TRADE_SUCCESS' },
    });
    expect(await gateway.queryPayment?.(unpaid.request.orderNo)).toMatchObject({ state: 'unpaid' });
    expect(await gateway.queryPayment?.(closed.request.orderNo)).toMatchObject({ state: 'closed' });
    expect(await gateway.queryPayment?.('YM20250101ffffffffffffffff')).toMatchObject({
      state: 'not_found',
      raw: { code: '40004', sub_code: 'ACQ.TRADE_NOT_EXIST' },
    });
  });

  it('a lost notification: the active query still finds the payment', async () => {
    const { request } = await opened();
    fake.dropNotifications(1);
    fake.pay(request.orderNo);
    await fake.settled();
    const sent = fake.notifications().filter((n) => n.outTradeNo === request.orderNo);
    expect(sent.map((n) => [n.dropped, n.attempts.length])).toEqual([[true, 0]]);
    expect(await gateway.queryPayment?.(request.orderNo)).toMatchObject({ state: 'paid' });
  });

  it('an answer whose signature does not verify is not believed', async () => {
    const { request } = await opened();
    fake.pay(request.orderNo);
    await fake.settled();
    fake.breakSignatures(1);
    await expect(gateway.queryPayment?.(request.orderNo)).rejects.toThrow(/验签失败/);
    expect(await gateway.queryPayment?.(request.orderNo)).toMatchObject({ state: 'paid' });
  });

  it('refund: twice under one number refunds once; another number refunds again up to the total, not past it', async () => {
    const { request } = await opened();
    const trade = fake.pay(request.orderNo);
    await fake.settled();
    const refund = (refundNo: string, amount: number) =>
      gateway.refund?.({
        orderNo: request.orderNo,
        tradeNo: trade.tradeNo,
        refundNo,
        amount,
        total: 1234,
        reason: '读者申请退款',
        notifyUrl: receiver.url,
      });

    expect(await refund('RF1', 500)).toMatchObject({
      state: 'success',
      raw: { fund_change: 'Y', refund_fee: '5.00' },
    });
    // The repeat moves no money (fund_change N); the refund query confirms the first one went through.
    expect(await refund('RF1', 500)).toMatchObject({
      state: 'success',
      raw: { fund_change: 'N', refund_query: { refund_status: 'REFUND_SUCCESS' } },
    });
    expect(fake.trade(request.orderNo)?.refunds.map((r) => [r.outRequestNo, r.cents])).toEqual([
      ['RF1', 500],
    ]);

    // An answer we cannot believe is not final: asking again under the same number is safe.
    fake.breakSignatures(1);
    expect(await refund('RF2', 734)).toMatchObject({ state: 'processing' });
    expect(await refund('RF2', 734)).toMatchObject({ state: 'success' });
    expect(fake.trade(request.orderNo)).toMatchObject({ status: 'TRADE_CLOSED' });
    expect(fake.trade(request.orderNo)?.refunds.map((r) => r.cents)).toEqual([500, 734]);

    expect(await refund('RF3', 1)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/ACQ\./) });
    expect(fake.trade(request.orderNo)?.refunds).toHaveLength(2);

    // Alipay notifies refunds too: a part as TRADE_SUCCESS with refund_fee, the whole as TRADE_CLOSED.
    await fake.settled();
    const refundNotes = fake
      .notifications()
      .filter((n) => n.outTradeNo === request.orderNo && n.fields.out_biz_no)
      .map((n) => [n.fields.out_biz_no, n.fields.trade_status, n.fields.refund_fee, n.acknowledged]);
    expect(refundNotes).toEqual([
      ['RF1', 'TRADE_SUCCESS', '5.00', true],
      ['RF2', 'TRADE_CLOSED', '12.34', true],
    ]);
  });

  it('reads the app key as PKCS#8, PKCS#1 or bare base64; refuses the app key where Alipay’s belongs', async () => {
    const pkcs8 = makeAlipayKeys('pkcs8');
    const bare = pkcs8.app.privateKey.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    const fakeFor = await startAlipayFake({
      appId: APP_ID,
      appPublicKey: pkcs8.app.publicKey,
      alipayKeys: pkcs8.alipay,
    });
    try {
      for (const privateKey of [pkcs8.app.privateKey, bare]) {
        const adapter = createAlipayGateway({
          appId: APP_ID,
          privateKey,
          alipayPublicKey: fakeFor.alipayPublicKey.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''),
          gateway: fakeFor.gateway,
        });
        const start = await adapter.createPayment(order());
        expect((await fetch(start.kind === 'redirect' ? start.url : '')).status).toBe(200);
      }
    } finally {
      await fakeFor.close();
    }
    const build = (privateKey: string, alipayPublicKey: string) => () =>
      createAlipayGateway({ appId: APP_ID, privateKey, alipayPublicKey, gateway: fake.gateway });
    expect(build(keys.app.privateKey, keys.app.publicKey)).toThrow(/app's own public key/);
    expect(build(keys.app.privateKey, keys.app.privateKey)).toThrow(/holds a private key/);
    expect(build('not a key', keys.alipay.publicKey)).toThrow(/not a readable RSA private key/);
    try {
      build(keys.app.privateKey, keys.app.publicKey)();
    } catch (err) {
      // The message names the setting, never a key's text.
      expect(String(err)).not.toMatch(/BEGIN|MII/);
    }
  });
});
