import { type Static, Type } from 'typebox';
import { BranchId } from '../envelope.ts';
import { AdminId, adminRoute, ConsolePage, ConsolePageQuery, Instant, Nullable } from './common.ts';

/** A merchant order number, as the refund call takes it. */
const OrderNo = Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' });
/** A China date (its being a real day is checked by the server, naming the field). */
const ChinaDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const ORDER_STATES = ['created', 'paid', 'expired', 'cancelled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
const State = Type.Union([
  Type.Literal('created'),
  Type.Literal('paid'),
  Type.Literal('expired'),
  Type.Literal('cancelled'),
]);
export const Purpose = Type.Union([Type.Literal('coin'), Type.Literal('vip'), Type.Literal('card')]);
export type Purpose = Static<typeof Purpose>;
export const RefundState = Type.Union([
  Type.Literal('processing'),
  Type.Literal('success'),
  Type.Literal('failed'),
]);
export type RefundState = Static<typeof RefundState>;

/** A row of the order list. Amounts in cents. */
export const OrderRow = Type.Object({
  /** The order's id: the story's link for roles that see the number in part. */
  id: Type.Integer(),
  /** Whole for owners (who refund); `YM` + date, asterisks and the last four characters for other roles. */
  orderNo: Type.String(),
  userId: Type.Integer(),
  account: Type.String(),
  purpose: Purpose,
  channel: Type.String(),
  channelName: Type.String(),
  gateway: Type.String(),
  amountLevel: Type.Integer(),
  payAmount: Type.Integer(),
  itemCount: Type.Integer(),
  presentCount: Type.Integer(),
  state: State,
  branchId: Type.Integer(),
  /** The branch's name in 渠道客服, empty when not named. */
  branchName: Type.String(),
  refundedAmount: Type.Integer(),
  createdAt: Instant,
  paidAt: Nullable(Instant),
});
export type OrderRow = Static<typeof OrderRow>;

export const PayChannelOption = Type.Object({
  code: Type.String(),
  name: Type.String(),
  active: Type.Boolean(),
});
export type PayChannelOption = Static<typeof PayChannelOption>;

export const OrderPage = Type.Intersect([
  ConsolePage(OrderRow),
  Type.Object({ channels: Type.Array(PayChannelOption) }),
]);
export type OrderPage = Static<typeof OrderPage>;

export const Refund = Type.Object({
  refundNo: Type.String(),
  amount: Type.Integer(),
  reason: Type.String(),
  state: RefundState,
  gatewayRefundNo: Nullable(Type.String()),
  /** The coins the order brought: taken back (what was unspent) or kept. */
  coins: Type.Union([Type.Literal('take'), Type.Literal('keep')]),
  /** Coins taken back (null until the refund succeeds, or when kept). */
  coinsTaken: Nullable(Type.Integer()),
  /** gateway: given back through the order's gateway; offline: marked 线下已退款 by an operator. */
  kind: Type.Union([Type.Literal('gateway'), Type.Literal('offline')]),
  actor: Type.String(),
  createdAt: Instant,
});
export type Refund = Static<typeof Refund>;

export const OrderEvent = Type.Object({
  id: Type.Integer(),
  at: Instant,
  fromStatus: Nullable(State),
  toStatus: State,
  /** apply, notify, query (the reconciler), sweeper, refund, refund-notify, … */
  source: Type.String(),
  detail: Type.String(),
  /** What the gateway said (a notification, a query's or a refund's answer), without signatures. */
  payload: Type.Unknown(),
});
export type OrderEvent = Static<typeof OrderEvent>;

export const LedgerTransfer = Type.Object({
  transferId: Type.String(),
  kind: Type.Union([
    Type.Literal('recharge'),
    Type.Literal('bonus'),
    Type.Literal('purchase'),
    Type.Literal('grant'),
    Type.Literal('revoke'),
  ]),
  amount: Type.Integer(),
  memo: Type.String(),
  createdAt: Instant,
  /** Both sides: `user:{id}` or a system account (`system:payments`, `system:bonus`). */
  entries: Type.Array(Type.Object({ account: Type.String(), amount: Type.Integer() })),
});
export type LedgerTransfer = Static<typeof LedgerTransfer>;

/** The whole story of an order: the order, the reader, its events, refunds and ledger. */
export const OrderStory = Type.Object({
  order: Type.Object({
    id: Type.Integer(),
    orderNo: Type.String(),
    state: State,
    purpose: Purpose,
    packId: Type.Integer(),
    packTitle: Type.String(),
    amountLevel: Type.Integer(),
    payAmount: Type.Integer(),
    itemCount: Type.Integer(),
    presentCount: Type.Integer(),
    channel: Type.String(),
    channelName: Type.String(),
    gateway: Type.String(),
    gatewayTradeNo: Nullable(Type.String()),
    branchId: Type.Integer(),
    branchName: Type.String(),
    appType: Type.String(),
    fromDomain: Type.String(),
    traceId: Type.String(),
    clientIp: Type.String(),
    createdAt: Instant,
    expiresAt: Instant,
    paidAt: Nullable(Instant),
    checkedAt: Nullable(Instant),
  }),
  user: Type.Object({ id: Type.Integer(), account: Type.String(), vipEnd: Nullable(Instant) }),
  events: Type.Array(OrderEvent),
  refunds: Type.Array(Refund),
  ledger: Type.Array(LedgerTransfer),
  refund: Type.Object({
    /** Cents refunded (succeeded), being refunded (processing), and still refundable. */
    refunded: Type.Integer(),
    processing: Type.Integer(),
    left: Type.Integer(),
    /** Why the owner cannot refund it here, or null when they can. */
    refusal: Nullable(Type.String()),
    /** True when the gateway cannot refund but the order can still be marked 线下已退款 (refunded outside). */
    offline: Type.Boolean(),
  }),
});
export type OrderStory = Static<typeof OrderStory>;

export const RevenueSums = Type.Object({
  paidCount: Type.Integer(),
  paidAmount: Type.Integer(),
  refundedAmount: Type.Integer(),
});
export type RevenueSums = Static<typeof RevenueSums>;

/** Coin packs, VIP, the monthly card, and all: the four sums every revenue row and the total give. */
const revenueByKind = { coin: RevenueSums, vip: RevenueSums, card: RevenueSums, all: RevenueSums };

export const RevenueRow = Type.Object({
  branchId: Type.Integer(),
  branchName: Type.String(),
  ...revenueByKind,
});
export type RevenueRow = Static<typeof RevenueRow>;

/** Revenue per branch over China dates from..to, both included. */
export const Revenue = Type.Object({
  from: Type.String(),
  to: Type.String(),
  days: Type.Integer(),
  rows: Type.Array(RevenueRow),
  total: Type.Object(revenueByKind),
});
export type Revenue = Static<typeof Revenue>;

export const ordersRoutes = {
  orders: adminRoute({
    method: 'GET',
    url: '/api/admin/orders',
    summary:
      '订单列表（服务器分页，新的在前；from/to 为北京时间日期，按下单时间；不能退款的角色看到部分隐藏的订单号）',
    querystring: Type.Object({
      ...ConsolePageQuery,
      orderNo: Type.Optional(OrderNo),
      userId: Type.Optional(AdminId),
      /** The 用户 filter: what the readers' search box takes (account, mobile, user id or visitor id). */
      user: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      state: Type.Optional(State),
      /** Paid orders refunded in whole (full) or in part (partial): refunds that succeeded, against what was paid. */
      refund: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('partial')])),
      channel: Type.Optional(Type.String({ maxLength: 32, pattern: '^[A-Za-z0-9_]+$' })),
      branchId: Type.Optional(BranchId),
      from: Type.Optional(ChinaDate),
      to: Type.Optional(ChinaDate),
    }),
    data: OrderPage,
  }),
  order: adminRoute({
    method: 'GET',
    url: '/api/admin/orders/:orderNo',
    summary: '订单的完整经过：订单、读者、事件（含网关报文）、退款、账本',
    params: Type.Object({ orderNo: OrderNo }),
    refusals: [404],
    data: OrderStory,
  }),
  orderById: adminRoute({
    method: 'GET',
    url: '/api/admin/orders/by-id/:id',
    summary: '订单的完整经过，按订单 ID（列表中订单号部分隐藏的角色由此打开）',
    params: Type.Object({ id: AdminId }),
    refusals: [404],
    data: OrderStory,
  }),
  revenue: adminRoute({
    method: 'GET',
    url: '/api/admin/revenue',
    summary: '各推广渠道的营收（北京时间日期，含首尾；默认最近 7 天，最长 92 天）',
    querystring: Type.Object({ from: Type.Optional(ChinaDate), to: Type.Optional(ChinaDate) }),
    data: Revenue,
  }),
  refund: adminRoute({
    method: 'POST',
    url: '/api/admin/orders/:orderNo/refunds',
    summary:
      '原路退款，或标记线下已退款（offline）；requestId：同一次退款重复提交只退一次；coins：收回或保留订单带来的阅币',
    params: Type.Object({ orderNo: OrderNo }),
    body: Type.Object({
      amount: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
      reason: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }),
      requestId: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
      /** 收回阅币 (take: what is unspent of the coins the order brought) or 保留阅币 (keep, when not given). */
      coins: Type.Optional(Type.Union([Type.Literal('take'), Type.Literal('keep')])),
      /** 线下已退款: for an order whose gateway cannot refund, record a refund made outside (success at once). */
      offline: Type.Optional(Type.Boolean()),
    }),
    refusals: [404],
    data: Type.Object({ refund: Refund }),
  }),
} as const;
