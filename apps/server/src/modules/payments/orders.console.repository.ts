import { and, asc, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  branchSettings,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransfers,
  payChannels,
  payConfigs,
  payOrderEvents,
  payOrders,
  payRefunds,
  users,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

/** The console's order filters (docs/api.md section 9); dates already turned into instants [from, to). */
export interface OrderFilter {
  orderNo?: string;
  userId?: number;
  /** The readers the 用户 filter matched (never empty: the service answers no rows for none). */
  userIds?: number[];
  state?: string;
  /** Refunded in whole or in part (derived from the refunds that succeeded; docs/decisions.md). */
  refund?: 'full' | 'partial';
  channel?: string;
  branchId?: number;
  from?: Date;
  to?: Date;
}

/** One promotion branch's sums for one purpose over a range (cents; counts of paid orders). */
export interface RevenueRow {
  branchId: number;
  branchName: string;
  purpose: 'coin' | 'vip' | 'card';
  paidCount: number;
  paidAmount: number;
  refundedAmount: number;
}

const refundedOf = sql<number>`(select coalesce(sum(${payRefunds.amount}), 0)::bigint from ${payRefunds}
  where ${payRefunds.orderId} = ${payOrders.id} and ${payRefunds.state} = 'success')`.mapWith(Number);

/**
 * What the console reads of orders: its list, an order's whole story and revenue per promotion branch. Read-only
 * reports: they join the reader's account, the ledger and the branch settings in their queries (the writes stay
 * behind each module's port: the wallet's ledger is still the only code that moves coins).
 */
export function createOrdersConsoleRepository(db: Database) {
  return {
    /** A page of orders, newest first, with the reader's account name, the branch's name and what was refunded of each. */
    async listOrders(filter: OrderFilter & { offset: number; limit: number }) {
      const where: SQL[] = [];
      if (filter.orderNo !== undefined) where.push(eq(payOrders.orderNo, filter.orderNo));
      if (filter.userId !== undefined) where.push(eq(payOrders.userId, filter.userId));
      if (filter.userIds !== undefined) where.push(inArray(payOrders.userId, filter.userIds));
      if (filter.state !== undefined) where.push(eq(payOrders.status, filter.state));
      if (filter.refund === 'full')
        where.push(eq(payOrders.status, 'paid'), sql`${refundedOf} >= ${payOrders.payAmount}`);
      if (filter.refund === 'partial')
        where.push(
          eq(payOrders.status, 'paid'),
          sql`${refundedOf} > 0`,
          sql`${refundedOf} < ${payOrders.payAmount}`,
        );
      if (filter.channel !== undefined) where.push(eq(payOrders.channel, filter.channel));
      if (filter.branchId !== undefined) where.push(eq(payOrders.branchId, filter.branchId));
      if (filter.from !== undefined) where.push(gte(payOrders.createdAt, filter.from));
      if (filter.to !== undefined) where.push(lt(payOrders.createdAt, filter.to));
      const condition = where.length > 0 ? and(...where) : undefined;
      const rows = await db
        .select({
          id: payOrders.id,
          orderNo: payOrders.orderNo,
          userId: payOrders.userId,
          account: users.account,
          purpose: payOrders.purpose,
          channel: payOrders.channel,
          channelName: payChannels.subTypeDesc,
          gateway: payOrders.gateway,
          amountLevel: payOrders.amountLevel,
          payAmount: payOrders.payAmount,
          itemCount: payOrders.itemCount,
          presentCount: payOrders.presentCount,
          state: payOrders.status,
          branchId: payOrders.branchId,
          branchName: sql<string>`coalesce(${branchSettings.name}, '')`,
          refundedAmount: refundedOf,
          createdAt: payOrders.createdAt,
          paidAt: payOrders.paidAt,
        })
        .from(payOrders)
        .innerJoin(users, eq(users.id, payOrders.userId))
        .innerJoin(payChannels, eq(payChannels.subTypeCode, payOrders.channel))
        .leftJoin(branchSettings, eq(branchSettings.branchId, payOrders.branchId))
        .where(condition)
        .orderBy(desc(payOrders.createdAt), desc(payOrders.id))
        .offset(filter.offset)
        .limit(filter.limit);
      const total = await db.$count(payOrders, condition);
      return { rows, total };
    },

    /** Every pay channel (a handful): the list's channel filter offers them. */
    channels: () =>
      db
        .select({ code: payChannels.subTypeCode, name: payChannels.subTypeDesc, active: payChannels.active })
        .from(payChannels)
        .orderBy(asc(payChannels.sort), asc(payChannels.subTypeCode)),

    /** The merchant number of the order with this id (the console's link for roles shown numbers in part). */
    async orderNoOf(id: number) {
      const [row] = await db
        .select({ orderNo: payOrders.orderNo })
        .from(payOrders)
        .where(eq(payOrders.id, id));
      return row?.orderNo;
    },

    /** The order with its pack, channel and reader, by its merchant number. */
    async order(orderNo: string) {
      const [row] = await db
        .select({
          order: payOrders,
          packTitle: payConfigs.title,
          channelName: payChannels.subTypeDesc,
          account: users.account,
          vipEnd: users.vipEnd,
          branchName: sql<string>`coalesce(${branchSettings.name}, '')`,
        })
        .from(payOrders)
        .innerJoin(users, eq(users.id, payOrders.userId))
        .innerJoin(payConfigs, eq(payConfigs.id, payOrders.payConfigId))
        .innerJoin(payChannels, eq(payChannels.subTypeCode, payOrders.channel))
        .leftJoin(branchSettings, eq(branchSettings.branchId, payOrders.branchId))
        .where(eq(payOrders.orderNo, orderNo));
      return row;
    },

    events: (orderId: number) =>
      db
        .select()
        .from(payOrderEvents)
        .where(eq(payOrderEvents.orderId, orderId))
        .orderBy(asc(payOrderEvents.id)),

    refunds: (orderId: number) =>
      db.select().from(payRefunds).where(eq(payRefunds.orderId, orderId)).orderBy(asc(payRefunds.id)),

    /**
     * The ledger's transfers made for a paid order, with both sides of each: every transfer to or from the reader's
     * account that names the order (its coins and bonus, `order:{orderNo}:…`, and the first-recharge offer, whose id
     * is the reader's, `first-pay:{userId}`; found on the reader's transfers), and `more` by id (a refund's take-back).
     */
    async ledger(order: { orderNo: string; id: number; userId: number }, more: string[] = []) {
      const ids = [`order:${order.orderNo}:coins`, `order:${order.orderNo}:bonus`, ...more];
      const transfers = await db
        .select()
        .from(ledgerTransfers)
        .where(
          or(
            inArray(ledgerTransfers.id, ids),
            and(eq(ledgerTransfers.userId, order.userId), eq(ledgerTransfers.orderId, order.id)),
          ),
        )
        .orderBy(asc(ledgerTransfers.createdAt), asc(ledgerTransfers.id));
      if (transfers.length === 0) return [];
      const entries = await db
        .select({
          id: ledgerEntries.id,
          transferId: ledgerEntries.transferId,
          amount: ledgerEntries.amount,
          accountUserId: ledgerAccounts.userId,
          accountCode: ledgerAccounts.code,
          createdAt: ledgerEntries.createdAt,
        })
        .from(ledgerEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .where(
          inArray(
            ledgerEntries.transferId,
            transfers.map((t) => t.id),
          ),
        )
        .orderBy(asc(ledgerEntries.id));
      return transfers.map((t) => ({ ...t, entries: entries.filter((e) => e.transferId === t.id) }));
    },

    /**
     * Per promotion branch and purpose over [from, to): orders paid in it (their count and cents) and refunds made
     * in it that succeeded (cents, counted against the branch and purpose of their order). Paid orders come by the
     * paid_at index; refunds are few.
     */
    async revenue(from: Date, to: Date): Promise<RevenueRow[]> {
      const start = from.toISOString();
      const end = to.toISOString();
      const result = await db.execute(sql`
        with paid as (
          select branch_id, purpose, count(*) as n, sum(pay_amount) as cents
          from pay_orders
          where status = 'paid' and paid_at >= ${start}::timestamptz and paid_at < ${end}::timestamptz
          group by branch_id, purpose
        ), refunded as (
          select o.branch_id, o.purpose, sum(r.amount) as cents
          from pay_refunds r join pay_orders o on o.id = r.order_id
          where r.state = 'success' and r.created_at >= ${start}::timestamptz and r.created_at < ${end}::timestamptz
          group by o.branch_id, o.purpose
        )
        select coalesce(p.branch_id, f.branch_id) as "branchId",
               coalesce(p.purpose, f.purpose) as "purpose",
               coalesce(b.name, '') as "branchName",
               coalesce(p.n, 0)::bigint as "paidCount",
               coalesce(p.cents, 0)::bigint as "paidAmount",
               coalesce(f.cents, 0)::bigint as "refundedAmount"
        from paid p
        full join refunded f on f.branch_id = p.branch_id and f.purpose = p.purpose
        left join branch_settings b on b.branch_id = coalesce(p.branch_id, f.branch_id)`);
      return rowsOf<Record<keyof RevenueRow, unknown>>(result).map((r) => ({
        branchId: Number(r.branchId),
        branchName: String(r.branchName),
        purpose: r.purpose as RevenueRow['purpose'],
        paidCount: Number(r.paidCount),
        paidAmount: Number(r.paidAmount),
        refundedAmount: Number(r.refundedAmount),
      }));
    },
  };
}

export type OrdersConsoleRepository = ReturnType<typeof createOrdersConsoleRepository>;
