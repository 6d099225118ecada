import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { payConfigs, payOrders, users } from '../../db/schema/index.ts';
import { type Caller, infoStatus, login, post, registerVisitor } from './account-test-helpers.ts';

const NOT_FOUND = {
  result: false,
  code: 404,
  msg: '对不起，您的充值账号未找到，您可以联系客服帮忙找回（客服在线时间：9:30 ~ 21:00）',
  data: null,
};

/** An order as the payments domain writes it: from a device (trace id) and a network (client address). */
async function addOrder(
  t: TestApp,
  o: { userId: number; paidAt: Date | null; traceId: string; clientIp: string; status?: string },
) {
  const [pack] = await t.db.select().from(payConfigs).limit(1);
  if (!pack) throw new Error('the demo library has no pay configs');
  await t.db.insert(payOrders).values({
    orderNo: randomUUID(),
    userId: o.userId,
    payConfigId: pack.id,
    purpose: pack.type,
    channel: 'alipay_wap',
    gateway: 'sandbox',
    amountLevel: pack.amountLevel,
    payAmount: pack.amountLevel,
    itemCount: pack.itemCount,
    appType: 'wap_browser',
    status: o.status ?? 'paid',
    traceId: o.traceId,
    clientIp: o.clientIp,
    createdAt: new Date((o.paidAt ?? new Date()).getTime() - 60_000),
    expiresAt: new Date((o.paidAt ?? new Date()).getTime() + 60_000),
    paidAt: o.paidAt,
  });
}

const find = (t: TestApp, chargeTime: string | undefined, by: Caller) =>
  post(t, '/api/user/find_account', chargeTime === undefined ? {} : { chargeTime }, by);

const device = (traceId: string, ip: string, cookie?: string): Caller => ({
  ip,
  cookie,
  headers: { 'x-trace-id': traceId },
});

describeDb('find the recharge account by the date of a payment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_PER_HOUR: '10000', FIND_ACCOUNT_PER_HOUR: '1000' } });
  });
  afterAll(() => t?.close());

  it('finds the account from the same device, replaces its password and logs this request in', async () => {
    const payer = await registerVisitor(t, device('device-find-0001', '10.10.0.1'));
    await addOrder(t, {
      userId: payer.userId,
      paidAt: new Date('2024-03-05T04:00:00Z'),
      traceId: 'device-find-0001',
      clientIp: '10.10.0.1',
    });
    // Later, the same phone on another network, signed in as a fresh visitor.
    const visitor = await registerVisitor(t, device('device-find-0001', '10.20.0.1'));
    const res = await find(t, '2024-03-05', device('device-find-0001', '10.20.0.1', visitor.cookie));
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

  it('finds it from the same network with another device', async () => {
    const payer = await registerVisitor(t);
    await addOrder(t, {
      userId: payer.userId,
      paidAt: new Date('2024-04-01T02:00:00Z'),
      traceId: 'device-find-0002',
      clientIp: '10.10.0.2',
    });
    const res = await find(t, '2024-04-01', device('device-other-0002', '10.10.0.2'));
    expect(res.json()).toMatchObject({ result: true, data: { account: payer.account } });
  });

  it('answers the same 404 to a stranger and for a date without payments, byte for byte', async () => {
    const payer = await registerVisitor(t);
    const paidAt = new Date('2024-05-10T03:00:00Z');
    await addOrder(t, { userId: payer.userId, paidAt, traceId: 'device-find-0003', clientIp: '10.10.0.3' });
    const stranger = await find(t, '2024-05-10', device('device-stranger-03', '10.99.0.3'));
    const noPayments = await find(t, '2024-05-11', device('device-find-0003', '10.10.0.3'));
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json()).toEqual(NOT_FOUND);
    expect(noPayments.body).toBe(stranger.body);
    expect(stranger.cookies).toEqual([]);
    // Nothing changed for the payer.
    expect(await infoStatus(t, payer.cookie)).toBe(200);
    expect((await login(t, payer.account, payer.password, { ip: '10.30.0.3' })).json().result).toBe(true);
  });

  it('answers 404 when two accounts match', async () => {
    const paidAt = new Date('2024-06-01T05:00:00Z');
    for (const traceId of ['device-family-01', 'device-family-02']) {
      const payer = await registerVisitor(t);
      await addOrder(t, { userId: payer.userId, paidAt, traceId, clientIp: '10.10.0.4' });
    }
    const res = await find(t, '2024-06-01', device('device-family-01', '10.10.0.4'));
    expect(res.json()).toEqual(NOT_FOUND);
  });

  it('counts only paid orders', async () => {
    const payer = await registerVisitor(t);
    const at = new Date('2024-07-01T05:00:00Z');
    const order = { userId: payer.userId, traceId: 'device-find-0005', clientIp: '10.10.0.5' };
    await addOrder(t, { ...order, paidAt: null, status: 'created' });
    await addOrder(t, { ...order, paidAt: null, status: 'expired' });
    await addOrder(t, { ...order, paidAt: null, status: 'cancelled' });
    // The orders were made on that day but never paid.
    await t.db.update(payOrders).set({ createdAt: at }).where(eq(payOrders.userId, payer.userId));
    expect((await find(t, '2024-07-01', device('device-find-0005', '10.10.0.5'))).json()).toEqual(NOT_FOUND);
  });

  it('matches the China-time day of the payment, not the UTC one', async () => {
    const late = await registerVisitor(t);
    const early = await registerVisitor(t);
    // 23:30 China time on the 5th (15:30 UTC on the 5th) and 00:30 on the 6th (16:30 UTC, still the 5th in UTC).
    await addOrder(t, {
      userId: late.userId,
      paidAt: new Date('2024-08-05T15:30:00Z'),
      traceId: 'device-late-0006',
      clientIp: '10.10.0.6',
    });
    await addOrder(t, {
      userId: early.userId,
      paidAt: new Date('2024-08-05T16:30:00Z'),
      traceId: 'device-early-006',
      clientIp: '10.10.0.7',
    });
    const lateDevice = device('device-late-0006', '10.10.0.6');
    const earlyDevice = device('device-early-006', '10.10.0.7');
    expect((await find(t, '2024-08-06', lateDevice)).json()).toEqual(NOT_FOUND);
    expect((await find(t, '2024-08-05', earlyDevice)).json()).toEqual(NOT_FOUND);
    expect((await find(t, '2024-08-05', lateDevice)).json().data.account).toBe(late.account);
    expect((await find(t, '2024-08-06', earlyDevice)).json().data.account).toBe(early.account);
  });

  it('asks for a date, and refuses one that is not a real YYYY-MM-DD', async () => {
    const by = device('device-find-0008', '10.10.0.8');
    const missing = await find(t, undefined, by);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ result: false, code: 400, msg: '请选择您的充值扣款日期' });
    for (const chargeTime of ['2024-02-30', '20240305', '2024-3-5', '2024-03-05T00:00', 'yesterday']) {
      const res = await find(t, chargeTime, by);
      expect(res.statusCode, chargeTime).toBe(400);
      expect(res.json().msg).toContain('充值扣款日期不正确');
    }
  });
});

describeDb('find-account limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { FIND_ACCOUNT_PER_HOUR: '3' } });
  });
  afterAll(() => t?.close());

  it('limits attempts per client address, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const by = { ip: '10.40.0.1', headers: { 'x-forwarded-for': `203.0.113.${i}` } };
      statuses.push((await find(t, `2024-01-0${i + 1}`, by)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await find(t, '2024-01-09', { ip: '10.40.0.1' });
    expect(limited.json()).toMatchObject({ result: false, code: 429 });
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await find(t, '2024-01-09', { ip: '10.40.0.2' })).json()).toEqual(NOT_FOUND);
  });
});
