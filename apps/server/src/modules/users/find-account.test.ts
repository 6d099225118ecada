import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { type Caller, infoStatus, login, post, registerVisitor } from '../../../test/visitors.ts';
import { payConfigs, payOrders, users } from '../../db/schema/index.ts';

const NOT_FOUND = {
  result: false,
  code: 404,
  msg: '对不起，您的充值账号未找到，您可以联系客服帮忙找回（客服在线时间：9:30 ~ 21:00）',
  data: null,
};

/** What every order of these tests cost: ¥30.00. */
const PAID_CENTS = 3000;

/** A paid (or not) order as the payments domain writes it, with a merchant order number like ours, for ¥30. */
async function addOrder(
  t: TestApp,
  o: { userId: number; paidAt: Date | null; traceId?: string; clientIp?: string; status?: string },
) {
  const [pack] = await t.db.select().from(payConfigs).limit(1);
  if (!pack) throw new Error('the demo library has no pay configs');
  const orderNo = `YM20240101${randomBytes(8).toString('hex').toUpperCase()}`;
  await t.db.insert(payOrders).values({
    orderNo,
    userId: o.userId,
    payConfigId: pack.id,
    purpose: pack.type,
    channel: 'alipay_wap',
    gateway: 'sandbox',
    amountLevel: pack.amountLevel,
    payAmount: PAID_CENTS,
    itemCount: pack.itemCount,
    appType: 'wap_browser',
    status: o.status ?? 'paid',
    traceId: o.traceId ?? 'device-of-payer',
    clientIp: o.clientIp ?? '10.10.0.1',
    createdAt: new Date((o.paidAt ?? new Date()).getTime() - 60_000),
    expiresAt: new Date((o.paidAt ?? new Date()).getTime() + 60_000),
    paidAt: o.paidAt,
  });
  return orderNo;
}

/** find_account with the amount the reader reads off the bill (¥30) unless the fields say otherwise. */
const find = (
  t: TestApp,
  fields: { chargeTime?: string; orderNo?: string; payAmount?: string },
  by: Caller = {},
) => post(t, '/api/user/find_account', { payAmount: '30', ...fields } as Record<string, string>, by);

const device = (traceId: string, ip: string, cookie?: string): Caller => ({
  ip,
  cookie,
  headers: { 'x-trace-id': traceId },
});

describeDb('find the recharge account by the date and order number of a payment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REGISTER_PER_HOUR: '10000',
        FIND_ACCOUNT_PER_HOUR: '1000',
        FIND_ACCOUNT_PER_ORDER_PER_HOUR: '100',
      },
    });
  });
  afterAll(() => t?.close());

  it('finds the account from anywhere with the order number, replaces its password and logs this request in', async () => {
    const payer = await registerVisitor(t, device('device-find-0001', '10.10.0.1'));
    const orderNo = await addOrder(t, { userId: payer.userId, paidAt: new Date('2024-03-05T04:00:00Z') });
    // Later, another phone on another network, signed in as a fresh visitor.
    const visitor = await registerVisitor(t, device('device-new-0001', '10.20.0.1'));
    const res = await find(
      t,
      { chargeTime: '2024-03-05', orderNo: orderNo.toLowerCase() },
      device('device-new-0001', '10.20.0.1', visitor.cookie),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ result: true, code: 200, data: { account: payer.account } });
    expect(body.data.password).toMatch(/^[2-9a-zA-Z]{12}$/);
    expect(body.data.password).not.toBe(payer.password);

    // 'Save and log in': this request now holds a session on the found account; every older one ended.
    const cookie = sessionCookie(res);
    const info = await t.app.inject({ url: '/api/user/info', headers: { cookie } });
    expect(info.json().data.account).toBe(payer.account);
    expect(await infoStatus(t, payer.cookie)).toBe(401);
    expect(await infoStatus(t, visitor.cookie)).toBe(401);
    const [row] = await t.db.select().from(users).where(eq(users.id, payer.userId));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await login(t, payer.account, body.data.password, { ip: '10.30.0.1' })).json().result).toBe(true);
    expect((await login(t, payer.account, payer.password, { ip: '10.30.0.1' })).json().result).toBe(false);
  });

  it('takes the fields from a form body too, so the web app keeps them out of the URL', async () => {
    const payer = await registerVisitor(t);
    const orderNo = await addOrder(t, { userId: payer.userId, paidAt: new Date('2024-03-06T04:00:00Z') });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/find_account',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ chargeTime: '2024-03-06', orderNo, payAmount: '30.00' }).toString(),
    });
    expect(res.json()).toMatchObject({ result: true, data: { account: payer.account } });
  });

  it('no longer gives the account to someone with its trace id, its network and the date (the old attack)', async () => {
    const victim = await registerVisitor(t, device('device-victim-01', '10.50.0.1'));
    const paidAt = new Date('2024-05-10T03:00:00Z');
    const orderNo = await addOrder(t, {
      userId: victim.userId,
      paidAt,
      traceId: 'device-victim-01',
      clientIp: '10.50.0.1',
    });
    const attacker = await registerVisitor(t, device('device-victim-01', '10.50.0.1'));
    const sameDevice = device('device-victim-01', '10.50.0.1', attacker.cookie);
    const missing = await find(t, { chargeTime: '2024-05-10' }, sameDevice);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ result: false, code: 400, msg: '请输入订单号' });
    const guessed = `YM20240510${'0'.repeat(16)}`;
    for (const by of [sameDevice, device('device-victim-01', '10.99.0.1')]) {
      const res = await find(t, { chargeTime: '2024-05-10', orderNo: guessed }, by);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(NOT_FOUND);
      expect(res.cookies).toEqual([]);
    }
    // The right number on another day finds nothing either, and the answers are byte for byte the same.
    const otherDay = await find(t, { chargeTime: '2024-05-11', orderNo }, sameDevice);
    const unknown = await find(t, { chargeTime: '2024-05-11', orderNo: guessed }, sameDevice);
    expect(otherDay.body).toBe(unknown.body);
    // Nothing changed for the victim.
    expect(await infoStatus(t, victim.cookie)).toBe(200);
    expect((await login(t, victim.account, victim.password, { ip: '10.30.0.3' })).json().result).toBe(true);
  });

  it('an order number and its day are not enough: the amount paid must match too', async () => {
    const payer = await registerVisitor(t, device('device-amount-01', '10.60.0.1'));
    const orderNo = await addOrder(t, { userId: payer.userId, paidAt: new Date('2024-06-01T04:00:00Z') });
    // An old client (or someone who saw only the number and the time in the console) sends no amount: a clear 400.
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/user/find_account',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ chargeTime: '2024-06-01', orderNo }).toString(),
    });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual({ result: false, code: 400, msg: '请输入支付金额', data: null });
    for (const payAmount of ['abc', '-30', '0', '30.001', '1e3']) {
      const res = await find(t, { chargeTime: '2024-06-01', orderNo, payAmount });
      expect(res.statusCode, payAmount).toBe(400);
      expect(res.json().msg, payAmount).toBe('支付金额不正确，请填写支付账单中的实付金额（元）');
    }
    // A wrong amount finds nothing, with the same answer as an unknown number, and changes nothing.
    for (const payAmount of ['6', '29.99', '300']) {
      const res = await find(t, { chargeTime: '2024-06-01', orderNo, payAmount });
      expect(res.json(), payAmount).toEqual(NOT_FOUND);
      expect(res.cookies).toEqual([]);
    }
    expect(await infoStatus(t, payer.cookie)).toBe(200);
    // The amount as bills write it finds the account.
    for (const payAmount of ['¥30.00', '30.0 元']) {
      const res = await find(t, { chargeTime: '2024-06-01', orderNo, payAmount });
      expect(res.json().data?.account, payAmount).toBe(payer.account);
    }
  });

  it('counts only paid orders', async () => {
    const payer = await registerVisitor(t);
    for (const status of ['created', 'expired', 'cancelled']) {
      const orderNo = await addOrder(t, { userId: payer.userId, paidAt: null, status });
      // The order was made on that day but never paid.
      await t.db
        .update(payOrders)
        .set({ createdAt: new Date('2024-07-01T05:00:00Z') })
        .where(eq(payOrders.orderNo, orderNo));
      expect((await find(t, { chargeTime: '2024-07-01', orderNo })).json()).toEqual(NOT_FOUND);
    }
  });

  it('matches the China-time day of the payment, not the UTC one', async () => {
    const late = await registerVisitor(t);
    const early = await registerVisitor(t);
    // 23:30 China time on the 5th (15:30 UTC on the 5th) and 00:30 on the 6th (16:30 UTC, still the 5th in UTC).
    const lateNo = await addOrder(t, { userId: late.userId, paidAt: new Date('2024-08-05T15:30:00Z') });
    const earlyNo = await addOrder(t, { userId: early.userId, paidAt: new Date('2024-08-05T16:30:00Z') });
    expect((await find(t, { chargeTime: '2024-08-06', orderNo: lateNo })).json()).toEqual(NOT_FOUND);
    expect((await find(t, { chargeTime: '2024-08-05', orderNo: earlyNo })).json()).toEqual(NOT_FOUND);
    expect((await find(t, { chargeTime: '2024-08-05', orderNo: lateNo })).json().data.account).toBe(
      late.account,
    );
    expect((await find(t, { chargeTime: '2024-08-06', orderNo: earlyNo })).json().data.account).toBe(
      early.account,
    );
  });

  it('asks for a date and an order number, and refuses malformed ones before any lookup', async () => {
    const missing = await find(t, { orderNo: 'YM2024030500000000000000AA' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ result: false, code: 400, msg: '请选择您的充值扣款日期' });
    for (const chargeTime of ['2024-02-30', '20240305', '2024-3-5', '2024-03-05T00:00', 'yesterday']) {
      const res = await find(t, { chargeTime, orderNo: 'YM2024030500000000000000AA' });
      expect(res.statusCode, chargeTime).toBe(400);
      expect(res.json().msg).toContain('充值扣款日期不正确');
    }
    for (const orderNo of ['YM 1', 'YM-2024', "YM'or'1'='1", 'short']) {
      const res = await find(t, { chargeTime: '2024-03-05', orderNo });
      expect(res.statusCode, orderNo).toBe(400);
      expect(res.json().msg).toContain('订单号不正确');
    }
  });
});

describeDb('find-account limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { FIND_ACCOUNT_PER_HOUR: '3', FIND_ACCOUNT_PER_ORDER_PER_HOUR: '2' } });
  });
  afterAll(() => t?.close());

  it('limits attempts per client address, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const by = { ip: '10.40.0.1', headers: { 'x-forwarded-for': `203.0.113.${i}` } };
      const orderNo = `YM2024010${i + 1}${'A'.repeat(16)}`;
      statuses.push((await find(t, { chargeTime: `2024-01-0${i + 1}`, orderNo }, by)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await find(
      t,
      { chargeTime: '2024-01-09', orderNo: `YM20240109${'B'.repeat(16)}` },
      { ip: '10.40.0.1' },
    );
    expect(limited.json()).toMatchObject({ result: false, code: 429 });
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('limits attempts per order number, from however many addresses', async () => {
    const payer = await registerVisitor(t);
    const orderNo = await addOrder(t, { userId: payer.userId, paidAt: new Date('2024-02-02T04:00:00Z') });
    // Two wrong days from two addresses use up the number's attempts; the right day from a third is refused.
    for (const [i, day] of ['2024-02-01', '2024-02-03'].entries()) {
      expect((await find(t, { chargeTime: day, orderNo }, { ip: `10.41.0.${i + 1}` })).json()).toEqual(
        NOT_FOUND,
      );
    }
    const third = await find(t, { chargeTime: '2024-02-02', orderNo }, { ip: '10.41.0.3' });
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect(await infoStatus(t, payer.cookie)).toBe(200);
  });
});
