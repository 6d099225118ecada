import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

// A pack in the recharge centre: coins (itemCount + presentCount bonus) or VIP days (itemCount).
export const payConfigs = pgTable(
  'pay_configs',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    type: text().notNull(),
    amountLevel: integer().notNull(),
    itemCount: integer().notNull(),
    presentCount: integer().notNull().default(0),
    title: text().notNull(),
    configDesc: text().notNull().default(''),
    isDefault: boolean().notNull().default(false),
    isRecommend: boolean().notNull().default(false),
    initiatorCode: text().notNull().default('default'),
    sort: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    // The first-recharge offer: extra coins on a reader's first paid order of this pack, between these instants.
    firstPayBonus: integer().notNull().default(0),
    firstPayStartsAt: timestamp({ withTimezone: true }),
    firstPayEndsAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('pay_configs_first_pay', sql`${t.firstPayBonus} >= 0`),
    check('pay_configs_type', sql`${t.type} in ('coin', 'vip', 'card')`),
    check('pay_configs_amounts', sql`${t.amountLevel} > 0 and ${t.itemCount} > 0 and ${t.presentCount} >= 0`),
  ],
);

export const payChannels = pgTable(
  'pay_channels',
  {
    subTypeCode: text().primaryKey(),
    superiorCode: text().notNull(),
    initiatorCode: text().notNull().default('default'),
    subTypeDesc: text().notNull(),
    // Percent of the pack price the payer pays: 95 is shown as 9.5折, 100 means no discount.
    discountPercent: integer().notNull().default(100),
    // Client types (wap_browser, ios_desk, shell, other) this channel is offered to.
    appTypes: text().array().notNull(),
    // The gateway adapter that serves this channel; 'sandbox' until real merchant keys are configured.
    gateway: text().notNull().default('sandbox'),
    sort: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [
    check('pay_channels_superior', sql`${t.superiorCode} in ('alipay', 'wechat_pay', 'bank')`),
    check('pay_channels_discount', sql`${t.discountPercent} between 1 and 100`),
  ],
);

/**
 * An order in the recharge centre: one pack paid through one channel. It keeps everything an operator needs to
 * reconcile it with the gateway (docs/api.md section 4); its state changes are in pay_order_events.
 */
export const payOrders = pgTable(
  'pay_orders',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    // What the gateway knows the order by: unguessable, unique.
    orderNo: text().notNull().unique(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    payConfigId: integer()
      .notNull()
      .references(() => payConfigs.id, { onDelete: 'restrict' }),
    // 'coin' or 'vip', copied from the pack so a later change of the pack does not change the order.
    purpose: text().notNull(),
    channel: text()
      .notNull()
      .references(() => payChannels.subTypeCode, { onDelete: 'restrict' }),
    gateway: text().notNull(),
    // The pack's price and what the payer pays after the channel's discount, in cents.
    amountLevel: integer().notNull(),
    payAmount: integer().notNull(),
    // Coins or VIP days, and bonus coins, as they were when the order was made.
    itemCount: integer().notNull(),
    presentCount: integer().notNull().default(0),
    // The first-recharge offer's extra coins as offered when the order was made (0: none); credited only if this
    // is the reader's first paid order.
    firstPayBonus: integer().notNull().default(0),
    // created -> paid, created -> expired -> paid (a late payment is still credited), created -> cancelled
    status: text().notNull().default('created'),
    gatewayTradeNo: text(),
    traceId: text().notNull().default(''),
    clientIp: text().notNull().default(''),
    branchId: integer().notNull().default(-2),
    appType: text().notNull(),
    fromDomain: text().notNull().default(''),
    returnUrl: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    paidAt: timestamp({ withTimezone: true }),
    // When the reconciler last asked the gateway about this order (it asks the least recently asked first).
    checkedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('pay_orders_purpose', sql`${t.purpose} in ('coin', 'vip', 'card')`),
    check('pay_orders_status', sql`${t.status} in ('created', 'paid', 'expired', 'cancelled')`),
    check('pay_orders_amounts', sql`${t.amountLevel} > 0 and ${t.payAmount} > 0 and ${t.itemCount} > 0`),
    check('pay_orders_paid', sql`(${t.status} = 'paid') = (${t.paidAt} is not null)`),
    index('pay_orders_by_user').on(t.userId, t.createdAt.desc()),
    // find_account looks up paid orders of one China-time day; the sweeper looks for stale created orders.
    index('pay_orders_by_paid_at').on(t.paidAt),
    index('pay_orders_stale').on(t.status, t.expiresAt),
    // The console's order list: newest first, a China-date range of creation, one promotion branch.
    index('pay_orders_by_created_at').on(t.createdAt, t.id),
    index('pay_orders_by_branch').on(t.branchId, t.createdAt),
    // The reconciler's round: orders not paid yet, least recently asked first.
    index('pay_orders_unsettled')
      .on(t.checkedAt, t.createdAt)
      .where(sql`${t.status} in ('created', 'expired')`),
  ],
);

/** Every state change of an order, with what caused it (apply, a notification, the sweeper). */
export const payOrderEvents = pgTable(
  'pay_order_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => payOrders.id, { onDelete: 'cascade' }),
    fromStatus: text(),
    toStatus: text().notNull(),
    // e.g. 'apply', 'notify', 'query' (the reconciler), 'sweeper', plus the gateway's trade number or a refusal reason
    source: text().notNull(),
    detail: text().notNull().default(''),
    // What the gateway said (a notification, a query's answer), without signatures or secrets: the order's story.
    payload: jsonb(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pay_order_events_by_order').on(t.orderId, t.id)],
);

/**
 * The sandbox gateway's own book of payments: what its cashier page confirmed and the signed notification it
 * still owes the merchant. It plays a real provider, so it lives apart from our orders and talks to them only
 * over HTTP, retrying until acknowledged.
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    tradeNo: text().primaryKey(),
    orderNo: text().notNull().unique(),
    merchantId: text().notNull(),
    channel: text().notNull(),
    amount: integer().notNull(),
    notifyUrl: text().notNull(),
    returnUrl: text().notNull().default(''),
    // shown (cashier open), paid (confirmed, notification owed), cancelled
    status: text().notNull().default('shown'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    acknowledgedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sandbox_payments_status', sql`${t.status} in ('shown', 'paid', 'cancelled')`),
    index('sandbox_payments_due').on(t.nextAttemptAt),
  ],
);

/** The sandbox gateway's own book of refunds (its cashier's record): one row per merchant refund number. */
export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    refundNo: text().primaryKey(),
    tradeNo: text()
      .notNull()
      .references(() => sandboxPayments.tradeNo, { onDelete: 'restrict' }),
    amount: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sandbox_refunds_amount', sql`${t.amount} > 0`),
    index('sandbox_refunds_by_trade').on(t.tradeNo),
  ],
);

/**
 * Money given back through the gateway for a paid order, under our refund number (the gateway refunds one number
 * once: asking again is safe). The number comes from the order and the operator's request id, so a second tap of
 * the same request is the same refund.
 */
export const payRefunds = pgTable(
  'pay_refunds',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    refundNo: text().notNull().unique(),
    orderId: integer()
      .notNull()
      .references(() => payOrders.id, { onDelete: 'restrict' }),
    // Cents back to the payer.
    amount: integer().notNull(),
    reason: text().notNull(),
    // processing -> success | failed (as the gateway says; a refund whose answer was lost stays processing)
    state: text().notNull().default('processing'),
    gatewayRefundNo: text(),
    // The operator's choice for the coins the order brought: take (back what is unspent, once the refund
    // succeeds) or keep. coinsTaken: how many were taken back (null until then; 0 when none were left).
    coins: text().notNull().default('keep'),
    coinsTaken: integer(),
    // gateway (given back through the order's gateway) | offline (an operator marked it refunded outside, e.g. in
    // the merchant platform, for a gateway that cannot refund here: success at once)
    kind: text().notNull().default('gateway'),
    actor: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('pay_refunds_state', sql`${t.state} in ('processing', 'success', 'failed')`),
    check('pay_refunds_amount', sql`${t.amount} > 0`),
    check('pay_refunds_coins', sql`${t.coins} in ('take', 'keep')`),
    check('pay_refunds_kind', sql`${t.kind} in ('gateway', 'offline')`),
    index('pay_refunds_by_order').on(t.orderId),
  ],
);
