import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { ledgerTransfers, sandboxPayments } from '../../db/schema/index.ts';
import type { NotifySend } from '../sandbox/index.ts';
import {
  applyWeb,
  balanceOf,
  demo,
  eventsOf,
  injectSend,
  moneyState,
  notificationBody,
  orderByNo,
  postNotification,
} from './payments.test-support.ts';

describeDb('payment notifications', () => {
  let t: TestApp;
  let key: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    key = t.config.sandboxPayKey;
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  it('credits once when the same valid notification arrives 100 times at once, acknowledging all', async () => {
    const reader = await registerVisitor(t);
    const { order } = await applyWeb(t, reader.cookie, demo.coin3000, 2850);
    const tradeNo = `SB${randomBytes(12).toString('hex').toUpperCase()}`;
    const body = notificationBody(key, { orderNo: order.orderNo, amount: '2850', tradeNo });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => postNotification(t, 'wechat_h5', body)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(100).fill(200));
    expect(answers.every((a) => a.json().result === true)).toBe(true);
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    expect(
      await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.orderId, order.id)),
    ).toHaveLength(2);
    expect((await eventsOf(t.db, order.id)).map((e) => e.toStatus)).toEqual(['created', 'paid']);
    expect(await orderByNo(t.db, order.orderNo)).toMatchObject({ status: 'paid', gatewayTradeNo: tradeNo });
  });

  it('refuses forged and mismatched notifications with the failure acknowledgement, changing nothing', async () => {
    const reader = await registerVisitor(t);
    const { order } = await applyWeb(t, reader.cookie, demo.coin3000, 2850);
    const forger = randomBytes(32);
    const orderNo = order.orderNo;
    const cases: { name: string; channel: string; body: string; recorded: string | null }[] = [
      {
        name: 'forged signature',
        channel: 'wechat_h5',
        body: notificationBody(forger, { orderNo, amount: '2850' }),
        recorded: null,
      },
      {
        name: 'signature of other fields',
        channel: 'wechat_h5',
        body: notificationBody(
          key,
          { orderNo, amount: '2850' },
          { sign: notificationBody(key, { orderNo, amount: '1' }).split('sign=')[1] },
        ),
        recorded: null,
      },
      {
        name: 'wrong amount',
        channel: 'wechat_h5',
        body: notificationBody(key, { orderNo, amount: '1' }),
        recorded: 'amount 1',
      },
      {
        name: 'full price, not the discounted one',
        channel: 'wechat_h5',
        body: notificationBody(key, { orderNo, amount: '3000' }),
        recorded: 'amount 3000',
      },
      {
        name: 'unknown order',
        channel: 'wechat_h5',
        body: notificationBody(key, { orderNo: 'YM20240101AAAAAAAAAAAAAAAA', amount: '2850' }),
        recorded: null,
      },
      {
        name: 'wrong merchant',
        channel: 'wechat_h5',
        body: notificationBody(key, { orderNo, amount: '2850' }, { merchantId: 'other-merchant' }),
        recorded: 'merchant other-merchant',
      },
      {
        name: 'other channel',
        channel: 'alipay_wap',
        body: notificationBody(key, { orderNo, amount: '2850' }),
        recorded: 'channel wechat_h5',
      },
      {
        name: 'stale timestamp',
        channel: 'wechat_h5',
        body: notificationBody(key, {
          orderNo,
          amount: '2850',
          timestamp: String(Math.floor(Date.now() / 1000) - 3600),
        }),
        recorded: null,
      },
      { name: 'malformed body', channel: 'wechat_h5', body: 'orderNo=x&amount=abc', recorded: null },
      {
        name: 'unknown channel',
        channel: 'nope',
        body: notificationBody(key, { orderNo, amount: '2850' }),
        recorded: null,
      },
    ];
    const before = await moneyState(t.db);
    for (const c of cases) {
      const eventsBefore = (await eventsOf(t.db, order.id)).length;
      const res = await postNotification(t, c.channel, c.body);
      expect(res.statusCode, c.name).toBe(400);
      expect(res.json(), c.name).toMatchObject({ result: false });
      const events = await eventsOf(t.db, order.id);
      if (c.recorded === null) {
        expect(events, c.name).toHaveLength(eventsBefore);
      } else {
        expect(events, c.name).toHaveLength(eventsBefore + 1);
        expect(events.at(-1), c.name).toMatchObject({
          fromStatus: 'created',
          toStatus: 'created',
          source: 'notify',
        });
        expect(events.at(-1)?.detail, c.name).toContain(c.recorded);
      }
    }
    expect(await moneyState(t.db)).toEqual(before);
    expect((await orderByNo(t.db, orderNo)).status).toBe('created');
  });

  it('credits a verified payment that arrives after the sweeper expired the order', async () => {
    const reader = await registerVisitor(t);
    const { order, cashierPath } = await applyWeb(t, reader.cookie, demo.coin600, 570);
    expect(await t.app.ports.payments.expireStaleOrders(new Date(Date.now() + 16 * 60_000))).toContain(
      order.id,
    );
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('expired');

    await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` });
    expect(await t.app.ports.sandbox.deliverDueNotifications(injectSend(t))).toMatchObject({ delivered: 1 });
    expect(await balanceOf(t.db, reader.userId)).toBe(600);
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('paid');
    expect((await eventsOf(t.db, order.id)).map((e) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'created', 'apply'],
      ['created', 'expired', 'sweeper'],
      ['expired', 'paid', 'notify'],
    ]);
  });

  it('accepts the same fields as a JSON body', async () => {
    const reader = await registerVisitor(t);
    const { order } = await applyWeb(t, reader.cookie, demo.coin600, 570);
    const fields = Object.fromEntries(
      new URLSearchParams(notificationBody(key, { orderNo: order.orderNo, amount: '570' })),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pay/notify/wechat_h5',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(fields),
    });
    expect(res.statusCode).toBe(200);
    expect(await balanceOf(t.db, reader.userId)).toBe(600);
  });

  it('the notifier retries an unacknowledged notification with backoff and stops after success', async () => {
    const reader = await registerVisitor(t);
    const { order, cashierPath, tradeNo } = await applyWeb(t, reader.cookie, demo.coin3000, 2850);
    await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` });
    const row = async () => {
      const [r] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.tradeNo, tradeNo));
      if (!r) throw new Error('no sandbox payment');
      return r;
    };
    let calls = 0;
    const down: NotifySend = async () => {
      calls++;
      throw new Error('connection refused');
    };
    const busy: NotifySend = async () => {
      calls++;
      return { status: 500, body: '{"result":false}' };
    };
    const start = Date.now();
    expect(await t.app.ports.sandbox.deliverDueNotifications(down, new Date(start))).toMatchObject({
      failed: 1,
    });
    expect((await row()).attempts).toBe(1);
    expect((await row()).nextAttemptAt?.getTime()).toBe(start + 1_000);
    // Not due again before its time.
    expect(await t.app.ports.sandbox.deliverDueNotifications(down, new Date(start + 500))).toMatchObject({
      failed: 0,
    });
    expect(calls).toBe(1);

    expect(await t.app.ports.sandbox.deliverDueNotifications(busy, new Date(start + 1_000))).toMatchObject({
      failed: 1,
    });
    expect((await row()).attempts).toBe(2);
    expect((await row()).nextAttemptAt?.getTime()).toBe(start + 1_000 + 5_000);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);

    const ok = await t.app.ports.sandbox.deliverDueNotifications(
      injectSend(t, () => calls++),
      new Date(start + 6_000),
    );
    expect(ok).toMatchObject({ delivered: 1, failed: 0 });
    expect(calls).toBe(3);
    expect(await row()).toMatchObject({ attempts: 3, nextAttemptAt: null });
    expect(await balanceOf(t.db, reader.userId)).toBe(3300);
    // Acknowledged: never sent again.
    await t.app.ports.sandbox.deliverDueNotifications(
      injectSend(t, () => calls++),
      new Date(start + 24 * 3600_000),
    );
    expect(calls).toBe(3);
    expect((await eventsOf(t.db, order.id)).map((e) => e.toStatus)).toEqual(['created', 'paid']);
  });

  it('the notifier retries when the merchant refuses, e.g. a notification signed with another key', async () => {
    const reader = await registerVisitor(t);
    const { cashierPath, tradeNo } = await applyWeb(t, reader.cookie, demo.coin600, 570);
    await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` });
    // The merchant's answer passes through unchanged: a refusal (HTTP 400) is not an acknowledgement.
    const refusing: NotifySend = async (request) => {
      const res = await injectSend(t)({
        ...request,
        body: request.body.replace(/sign=[0-9a-f]+/, `sign=${'0'.repeat(64)}`),
      });
      expect(res.status).toBe(400);
      return res;
    };
    expect(await t.app.ports.sandbox.deliverDueNotifications(refusing)).toMatchObject({ failed: 1 });
    const [r] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.tradeNo, tradeNo));
    expect(r).toMatchObject({ attempts: 1, acknowledgedAt: null });
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
  });
});
