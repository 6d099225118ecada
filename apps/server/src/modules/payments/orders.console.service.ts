import type { LedgerTransfer, OrderState, Purpose } from '@yueman/contract/admin';
import { chinaDate, chinaDay } from '../../shared/china-time.ts';
import { badRequest } from '../../shared/errors.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import { eventText } from './event-text.ts';
import type { PaymentGateway } from './gateways/gateway.ts';
import type { OrderFilter, OrdersConsoleRepository } from './orders.console.repository.ts';
import { orderNotFound } from './payments.errors.ts';
import { refundOrder, refundView } from './refunds.service.ts';

type RefundDeps = Parameters<typeof refundOrder>[0];

export interface OrdersConsoleDeps {
  repo: OrdersConsoleRepository;
  /** The gateway an order was paid through, if this server has it (whether it refunds). */
  gateways: { get(name: string): Pick<PaymentGateway, 'refund'> | undefined };
  /** What a refund needs (the payments module's deps and the audit log). */
  refunds: RefundDeps;
  /** The readers the 用户 filter's input means (the users port; 400 naming the field for input it cannot read). */
  readerIdsMatching(text: string, field: string, limit?: number): Promise<number[]>;
}

/** A 用户 filter matches at most this many readers (a visitor id shared by a few accounts, an account and an id). */
const USER_FILTER_READERS = 50;

/** Who sees order numbers in part: every role that does not refund (the operator's role decides, per call). */
export interface Viewer {
  seesNumbersInPart: boolean;
  /** Whether this operator sees refunds (those who make them): others get the story without them. */
  seesRefunds: boolean;
}

/**
 * An order number as roles that do not refund see it: `YM` and the date, asterisks, the last four characters. A
 * whole number, with its day and amount, recovers the payer's account (find-account); support finds an order by
 * the whole number a reader tells them, and sees its story with the number in part.
 */
export function maskOrderNo(orderNo: string): string {
  const tail = orderNo.length > 8 ? 4 : 0;
  const head = orderNo.length >= 22 ? 10 : 0;
  return `${orderNo.slice(0, head)}${'*'.repeat(orderNo.length - head - tail)}${orderNo.slice(orderNo.length - tail)}`;
}

/** The same answer with every occurrence of the number (the gateway's messages, the ledger's ids) in part. */
export function maskedEverywhere<T>(answer: T, orderNo: string): T {
  const masked = maskOrderNo(orderNo);
  return JSON.parse(JSON.stringify(answer).replaceAll(orderNo, masked)) as T;
}

/** Revenue's range: a week by default, at most about a quarter. */
export const REVENUE_DEFAULT_DAYS = 7;
export const REVENUE_MAX_DAYS = 92;
const DAY_MS = 24 * 3600 * 1000;

// The console's date filters (China dates) and their refusals, each naming its field.
const badDay = (field: 'from' | 'to') =>
  badRequest(`${field === 'from' ? '开始' : '结束'}日期不正确，格式为 YYYY-MM-DD`, field);
const endBeforeStart = () => badRequest('结束日期不能早于开始日期', 'to');
const rangeTooLong = () => badRequest(`日期范围最长 ${REVENUE_MAX_DAYS} 天`, 'from');

function dayOf(text: string, field: 'from' | 'to') {
  const day = chinaDay(text);
  if (!day) throw badDay(field);
  return day;
}

/** China dates `from`..`to` (both included, either may be missing) as the instants [from, to). */
export function chinaRange(input: { from?: string; to?: string }) {
  const from = input.from === undefined ? undefined : dayOf(input.from, 'from').from;
  const to = input.to === undefined ? undefined : dayOf(input.to, 'to').to;
  if (from && to && to <= from) throw endBeforeStart();
  return { from, to };
}

/** A page of the order list with its filters, and the pay channels to filter by. */
export async function listOrders(
  deps: OrdersConsoleDeps,
  input: Omit<OrderFilter, 'from' | 'to' | 'userIds'> & {
    from?: string;
    to?: string;
    user?: string;
    page: number;
    size: number;
  },
  viewer: Viewer,
) {
  const { page, size, user, ...filter } = input;
  // The 用户 filter takes what the readers' search box takes; input it cannot read is a 400 (never every order), a
  // reader nobody is has no orders.
  const userIds =
    user === undefined ? undefined : await deps.readerIdsMatching(user, 'user', USER_FILTER_READERS);
  const [{ rows, total }, channels] = await Promise.all([
    userIds !== undefined && userIds.length === 0
      ? { rows: [], total: 0 }
      : deps.repo.listOrders({ ...filter, userIds, ...chinaRange(filter), ...consoleWindow({ page, size }) }),
    deps.repo.channels(),
  ]);
  const list = rows.map((r) => ({
    ...r,
    orderNo: viewer.seesNumbersInPart ? maskOrderNo(r.orderNo) : r.orderNo,
    purpose: r.purpose as Purpose,
    state: r.state as OrderState,
    createdAt: r.createdAt.toISOString(),
    paidAt: r.paidAt?.toISOString() ?? null,
  }));
  return { page, size, total, list, channels };
}

/** An order's story as this operator may see it: the number in part everywhere for roles that do not refund. */
export async function orderStoryFor(deps: OrdersConsoleDeps, key: string | { id: number }, viewer: Viewer) {
  const whole = await orderStory(deps, key);
  const story = viewer.seesRefunds ? whole : withoutRefunds(whole);
  return viewer.seesNumbersInPart ? maskedEverywhere(story, story.order.orderNo) : story;
}

/** The story as roles that do not refund see it: no refunds, their events or their take-backs of coins. */
function withoutRefunds(story: Awaited<ReturnType<typeof orderStory>>) {
  return {
    ...story,
    events: story.events.filter((e) => !e.source.startsWith('refund')),
    refunds: [],
    ledger: story.ledger.filter((t) => !t.transferId.startsWith('refund:')),
    refund: { refunded: 0, processing: 0, left: 0, refusal: '没有退款权限', offline: false },
  };
}

/** The owner's refund of an order through its gateway (refunds.service.ts). */
export async function refund(deps: OrdersConsoleDeps, input: Parameters<typeof refundOrder>[1]) {
  return { refund: await refundOrder(deps.refunds, { ...input, reason: input.reason.trim() }) };
}

/**
 * The whole story of one order: the order as made and paid, the reader, every event with what the gateway said,
 * the refunds, the ledger's transfers for it, and whether (and how much) it can still be refunded here.
 */
export async function orderStory(deps: OrdersConsoleDeps, key: string | { id: number }) {
  const orderNo = typeof key === 'string' ? key : await deps.repo.orderNoOf(key.id);
  const found = orderNo === undefined ? undefined : await deps.repo.order(orderNo);
  if (!found) throw orderNotFound();
  const { order } = found;
  const [events, refunds] = await Promise.all([deps.repo.events(order.id), deps.repo.refunds(order.id)]);
  // The order's own transfers, and each refund's take-back of its coins (refunds.service.ts).
  const ledger = await deps.repo.ledger(
    order,
    refunds.map((r) => `refund:${r.refundNo}:coins`),
  );
  const sum = (state: (s: string) => boolean) =>
    refunds.filter((r) => state(r.state)).reduce((n, r) => n + r.amount, 0);
  const left = order.status === 'paid' ? order.payAmount - sum((s) => s !== 'failed') : 0;
  const gatewayRefunds = Boolean(deps.gateways.get(order.gateway)?.refund);
  const notRefundable =
    order.status !== 'paid' || !order.gatewayTradeNo
      ? '订单未支付，不能退款'
      : left <= 0
        ? '已全部退款'
        : null;
  const why =
    notRefundable ??
    (gatewayRefunds ? null : '该订单的支付渠道不支持原路退款，请在商户平台退款后标记线下已退款');
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    order: {
      id: order.id,
      orderNo: order.orderNo,
      state: order.status as OrderState,
      purpose: order.purpose as Purpose,
      packId: order.payConfigId,
      packTitle: found.packTitle,
      amountLevel: order.amountLevel,
      payAmount: order.payAmount,
      itemCount: order.itemCount,
      presentCount: order.presentCount,
      channel: order.channel,
      channelName: found.channelName,
      gateway: order.gateway,
      gatewayTradeNo: order.gatewayTradeNo,
      branchId: order.branchId,
      branchName: found.branchName,
      appType: order.appType,
      fromDomain: order.fromDomain,
      traceId: order.traceId,
      clientIp: order.clientIp,
      createdAt: order.createdAt.toISOString(),
      expiresAt: order.expiresAt.toISOString(),
      paidAt: iso(order.paidAt),
      checkedAt: iso(order.checkedAt),
    },
    user: { id: order.userId, account: found.account, vipEnd: iso(found.vipEnd) },
    events: events.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      fromStatus: e.fromStatus as OrderState | null,
      toStatus: e.toStatus as OrderState,
      source: e.source,
      detail: eventText(e.detail),
      payload: e.payload ?? null,
    })),
    refunds: refunds.map(refundView),
    ledger: ledger.map((t) => ({
      transferId: t.id,
      kind: t.kind as LedgerTransfer['kind'],
      amount: t.amount,
      memo: t.memo,
      createdAt: t.createdAt.toISOString(),
      entries: t.entries.map((e) => ({
        account: e.accountCode ?? `user:${e.accountUserId}`,
        amount: e.amount,
      })),
    })),
    refund: {
      /** Cents refunded (succeeded), being refunded (processing), and still refundable. */
      refunded: sum((s) => s === 'success'),
      processing: sum((s) => s === 'processing'),
      left: Math.max(0, left),
      /** Why it cannot be refunded through its gateway here, or null when it can. */
      refusal: why,
      /** The gateway cannot refund, but the order can be marked 线下已退款. */
      offline: notRefundable === null && !gatewayRefunds,
    },
  };
}

type Sums = { paidCount: number; paidAmount: number; refundedAmount: number };
const zero = (): Sums => ({ paidCount: 0, paidAmount: 0, refundedAmount: 0 });
const add = (into: Sums, row: Sums) => {
  into.paidCount += row.paidCount;
  into.paidAmount += row.paidAmount;
  into.refundedAmount += row.refundedAmount;
};

/**
 * Revenue per promotion branch over China dates `from`..`to` (both included; the last 7 days to today by default,
 * at most 92): orders paid in the range and refunds made in it that succeeded, by purpose, with a total row.
 */
export async function revenue(deps: OrdersConsoleDeps, input: { from?: string; to?: string; now?: Date }) {
  // Without `to`: up to today; without `from`: the week that ends on `to`.
  const end = dayOf(input.to ?? chinaDate(input.now ?? new Date()), 'to');
  const start = dayOf(input.from ?? chinaDate(end.from, -(REVENUE_DEFAULT_DAYS - 1)), 'from');
  if (end.to <= start.from) throw endBeforeStart();
  const days = Math.round((end.to.getTime() - start.from.getTime()) / DAY_MS);
  if (days > REVENUE_MAX_DAYS) throw rangeTooLong();

  const byBranch = new Map<
    number,
    { branchId: number; branchName: string } & Record<'coin' | 'vip' | 'card' | 'all', Sums>
  >();
  const total = { coin: zero(), vip: zero(), card: zero(), all: zero() };
  for (const row of await deps.repo.revenue(start.from, end.to)) {
    let branch = byBranch.get(row.branchId);
    if (!branch) {
      branch = {
        branchId: row.branchId,
        branchName: row.branchName,
        coin: zero(),
        vip: zero(),
        card: zero(),
        all: zero(),
      };
      byBranch.set(row.branchId, branch);
    }
    for (const into of [branch[row.purpose], branch.all, total[row.purpose], total.all]) add(into, row);
  }
  const rows = [...byBranch.values()].sort(
    (a, b) => b.all.paidAmount - a.all.paidAmount || a.branchId - b.branchId,
  );
  return {
    from: chinaDate(start.from),
    to: chinaDate(end.from),
    days,
    rows,
    total,
  };
}
