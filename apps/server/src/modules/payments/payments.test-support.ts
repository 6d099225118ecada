// Helpers of the payments tests: a reader with a session, orders through the real routes, notifications
// delivered through the real app, and the state money lives in, to compare before and after.
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/test-app.ts';
import type { Database } from '../../db/client.ts';
import {
  ledgerAccounts,
  ledgerTransfers,
  payOrderEvents,
  payOrders,
  sandboxPayments,
  users,
} from '../../db/schema/index.ts';
import type { NotifySend } from '../sandbox/index.ts';
import { type NotificationFields, signFields } from '../sandbox/sandbox-signing.ts';

export interface ApplyParams {
  rechargerAmount: number;
  payPurposeId: number;
  payChannel: string;
  payPurpose: 'coin' | 'vip' | 'card';
  appType?: string;
  userId?: number;
  vueReturnUrl?: string;
}

export const applyUrl = (p: ApplyParams) =>
  `/h5/pay/apply?${new URLSearchParams(
    Object.entries({ branchId: -2, fromDomain: 'm.example.com', appType: 'wap_browser', ...p })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  )}`;

/** Demo packs and channels (seed/demo-shop.ts) with what the payer pays. */
export const demo = {
  coin3000: { payPurposeId: 2, payPurpose: 'coin', itemCount: 3000, presentCount: 300 },
  coin600: { payPurposeId: 1, payPurpose: 'coin', itemCount: 600, presentCount: 0 },
  vip30: { payPurposeId: 5, payPurpose: 'vip', itemCount: 30, presentCount: 0 },
  card30: { payPurposeId: 8, payPurpose: 'card', itemCount: 30, presentCount: 0 },
} as const;

/** Applies for a pack through the web channel wechat_h5 (9.5折) and answers the order and its cashier path. */
export async function applyWeb(
  t: TestApp,
  cookie: string,
  pack: { payPurposeId: number; payPurpose: 'coin' | 'vip' | 'card' },
  amount: number,
  extra: Partial<ApplyParams> = {},
) {
  const res = await t.app.inject({
    url: applyUrl({ ...pack, payChannel: 'wechat_h5', rechargerAmount: amount, ...extra }),
    headers: { cookie },
  });
  expect(res.statusCode, res.body).toBe(302);
  const cashier = new URL(String(res.headers.location));
  const tradeNo = cashier.pathname.split('/').pop() ?? '';
  const [payment] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.tradeNo, tradeNo));
  if (!payment) throw new Error('no sandbox payment');
  const order = await orderByNo(t.db, payment.orderNo);
  return { order, cashierPath: cashier.pathname, tradeNo, location: String(res.headers.location) };
}

export async function orderByNo(db: Database, orderNo: string) {
  const [order] = await db.select().from(payOrders).where(eq(payOrders.orderNo, orderNo));
  if (!order) throw new Error(`no order ${orderNo}`);
  return order;
}

export async function eventsOf(db: Database, orderId: number) {
  return db
    .select()
    .from(payOrderEvents)
    .where(eq(payOrderEvents.orderId, orderId))
    .orderBy(asc(payOrderEvents.id));
}

/** Delivers the sandbox's notifications through the real app (app.inject) instead of a socket. */
export const injectSend =
  (t: TestApp, onSend?: (url: string) => void): NotifySend =>
  async ({ url, headers, body }) => {
    onSend?.(url);
    const target = new URL(url);
    const res = await t.app.inject({
      method: 'POST',
      url: target.pathname + target.search,
      headers,
      payload: body,
    });
    return { status: res.statusCode, body: res.body };
  };

export async function balanceOf(db: Database, userId: number) {
  const [row] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, userId));
  return row?.balance ?? 0;
}

/** Everything a notification could change: balances, transfers, orders, VIP ends. */
export async function moneyState(db: Database) {
  return {
    accounts: await db.select().from(ledgerAccounts).orderBy(asc(ledgerAccounts.id)),
    transfers: await db.select().from(ledgerTransfers).orderBy(asc(ledgerTransfers.id)),
    orders: await db.select().from(payOrders).orderBy(asc(payOrders.id)),
    vip: await db.select({ id: users.id, vipEnd: users.vipEnd }).from(users).orderBy(asc(users.id)),
  };
}

/** A notification body in the sandbox's format, signed with `key` (ours, or a forger's). */
export function notificationBody(
  key: Buffer,
  fields: Partial<NotificationFields> & Pick<NotificationFields, 'orderNo' | 'amount'>,
  opts: { merchantId?: string; sign?: string } = {},
) {
  const all: NotificationFields = {
    merchantId: opts.merchantId ?? 'ym-sandbox',
    nonce: randomBytes(16).toString('hex'),
    timestamp: String(Math.floor(Date.now() / 1000)),
    tradeNo: `SB${randomBytes(12).toString('hex').toUpperCase()}`,
    ...fields,
  };
  return new URLSearchParams({ ...all, sign: opts.sign ?? signFields(key, all) }).toString();
}

export const postNotification = (t: TestApp, channel: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/pay/notify/${channel}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
