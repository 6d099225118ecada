import { and, asc, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import {
  ledgerTransfers,
  payChannels,
  payConfigs,
  payOrderEvents,
  payOrders,
  payRefunds,
} from '../../db/schema/index.ts';
import { one, rowsOf } from '../../shared/rows.ts';

export type PayOrder = typeof payOrders.$inferSelect;
export type PayChannel = typeof payChannels.$inferSelect;
export type PayPack = typeof payConfigs.$inferSelect;
export type OrderEvent = typeof payOrderEvents.$inferInsert;

/** Order statuses a verified payment moves to paid: a late payment is credited, even after expiry. */
export const PAYABLE_STATUSES = ['created', 'expired', 'cancelled'];

/** First key of the advisory lock that serialises one user's pay applies (the second is the user id). */
const APPLY_LOCK = 7_140_001;
/** First key of the advisory lock that serialises the settling of one user's first-recharge offers. */
const FIRST_PAY_LOCK = 7_140_002;

export function createPaymentsRepository(db: Database) {
  return {
    transaction: db.transaction.bind(db),

    async activePacks() {
      return db
        .select()
        .from(payConfigs)
        .where(eq(payConfigs.active, true))
        .orderBy(asc(payConfigs.sort), asc(payConfigs.id));
    },

    async pack(id: number) {
      const [row] = await db.select().from(payConfigs).where(eq(payConfigs.id, id));
      return row;
    },

    async channelsFor(appType: string) {
      return db
        .select()
        .from(payChannels)
        .where(and(eq(payChannels.active, true), sql`${appType}::text = any(${payChannels.appTypes})`))
        .orderBy(asc(payChannels.sort), asc(payChannels.subTypeCode));
    },

    async channel(code: string) {
      const [row] = await db.select().from(payChannels).where(eq(payChannels.subTypeCode, code));
      return row;
    },

    /**
     * The order and its 'created' event, together; or, when this user already has an open order for the same pack,
     * channel, amount, client and return address made since `reuseSince`, that order (a second tap, a reload, a navigation sent twice). The
     * user's advisory lock serialises concurrent applies, so two at the same moment make one order.
     */
    async createOrderOnce(row: typeof payOrders.$inferInsert, detail: string, reuseSince: Date) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${APPLY_LOCK}, ${row.userId})`);
        const [open] = await tx
          .select()
          .from(payOrders)
          .where(
            and(
              eq(payOrders.userId, row.userId),
              eq(payOrders.payConfigId, row.payConfigId),
              eq(payOrders.channel, row.channel),
              eq(payOrders.payAmount, row.payAmount),
              eq(payOrders.appType, row.appType),
              eq(payOrders.returnUrl, row.returnUrl ?? ''),
              eq(payOrders.status, 'created'),
              gt(payOrders.createdAt, reuseSince),
              gt(payOrders.expiresAt, sql`now()`),
            ),
          )
          .orderBy(desc(payOrders.createdAt))
          .limit(1);
        if (open) return { order: open, reused: true };
        const order = one(await tx.insert(payOrders).values(row).returning());
        await tx
          .insert(payOrderEvents)
          .values({ orderId: order.id, toStatus: 'created', source: 'apply', detail });
        return { order, reused: false };
      });
    },

    /** Whether the user has ever paid an order (a refunded one counts): the first-recharge offer is for those who have not. */
    async hasPaid(userId: number, q: Queryable = db) {
      const [row] = await q
        .select({ id: payOrders.id })
        .from(payOrders)
        .where(and(eq(payOrders.userId, userId), eq(payOrders.status, 'paid')))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Inside the transaction that marked `orderId` paid: whether it is the user's first paid order. The user's
     * advisory lock makes two orders paid at once take turns, so the second sees the first (READ COMMITTED: each
     * statement sees what committed before it).
     */
    async isFirstPaid(tx: Queryable, userId: number, orderId: number) {
      await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_PAY_LOCK}, ${userId})`);
      const [other] = await tx
        .select({ id: payOrders.id })
        .from(payOrders)
        .where(
          and(eq(payOrders.userId, userId), eq(payOrders.status, 'paid'), sql`${payOrders.id} <> ${orderId}`),
        )
        .limit(1);
      return other === undefined;
    },

    /** The user's most recently paid order, or undefined. */
    async lastPaidOrder(userId: number) {
      const [row] = await db
        .select({ orderNo: payOrders.orderNo, paidAt: payOrders.paidAt, payAmount: payOrders.payAmount })
        .from(payOrders)
        .where(and(eq(payOrders.userId, userId), eq(payOrders.status, 'paid')))
        .orderBy(desc(payOrders.paidAt))
        .limit(1);
      return row;
    },

    /** The user who paid the order with this merchant number, when it was paid in [from, to). */
    async payerOf(q: { orderNo: string; from: Date; to: Date; payAmount: number }) {
      const [row] = await db
        .select({ userId: payOrders.userId })
        .from(payOrders)
        .where(
          and(
            eq(payOrders.orderNo, q.orderNo),
            eq(payOrders.payAmount, q.payAmount),
            eq(payOrders.status, 'paid'),
            gte(payOrders.paidAt, q.from),
            lt(payOrders.paidAt, q.to),
          ),
        );
      return row?.userId;
    },

    async orderByNo(orderNo: string) {
      const [row] = await db.select().from(payOrders).where(eq(payOrders.orderNo, orderNo));
      return row;
    },

    async events(orderId: number) {
      return db
        .select()
        .from(payOrderEvents)
        .where(eq(payOrderEvents.orderId, orderId))
        .orderBy(asc(payOrderEvents.id));
    },

    async addEvent(event: OrderEvent, q: Queryable = db) {
      await q.insert(payOrderEvents).values(event);
    },

    /** Something the order's story keeps that moves nothing (a refusal, a gateway's answer, a refund). */
    async note(
      order: { id: number; status: string },
      note: { source: string; detail: string; payload?: Record<string, unknown> | null },
    ) {
      await db.insert(payOrderEvents).values({
        orderId: order.id,
        fromStatus: order.status,
        toStatus: order.status,
        source: note.source,
        detail: note.detail,
        payload: note.payload ?? null,
      });
    },

    /**
     * Inside the caller's transaction: locks the order, then moves it to paid with a conditional update.
     * Undefined when it was already paid (a duplicate or concurrent notification), with the status it had.
     */
    async markPaid(tx: Queryable, orderId: number, tradeNo: string) {
      const [locked] = await tx
        .select({ status: payOrders.status, gatewayTradeNo: payOrders.gatewayTradeNo })
        .from(payOrders)
        .where(eq(payOrders.id, orderId))
        .for('update');
      const [paid] = await tx
        .update(payOrders)
        .set({ status: 'paid', paidAt: sql`now()`, gatewayTradeNo: tradeNo })
        .where(and(eq(payOrders.id, orderId), inArray(payOrders.status, PAYABLE_STATUSES)))
        .returning();
      return { paid, before: locked };
    },

    /**
     * The reconciler's next orders: not paid (created or expired), made between `from` and `to` on one of
     * `gateways`, least recently asked first (never asked before any).
     */
    unsettled(q: { from: Date; to: Date; gateways: string[]; limit: number }) {
      if (q.gateways.length === 0) return Promise.resolve([] as PayOrder[]);
      return db
        .select()
        .from(payOrders)
        .where(
          and(
            inArray(payOrders.status, ['created', 'expired']),
            inArray(payOrders.gateway, q.gateways),
            sql`${payOrders.createdAt} between ${q.from.toISOString()}::timestamptz and ${q.to.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(sql`${payOrders.checkedAt} asc nulls first`, payOrders.createdAt)
        .limit(q.limit);
    },

    /**
     * The refund with this number: the one made before (a second tap), else made now if what is left of the order's
     * payment covers it (refunds not failed count), else `left` says how much is. Under the order's row lock, so two
     * different refunds asked at once cannot together pass what was paid.
     */
    refundOnce(
      row: typeof payRefunds.$inferInsert,
      paid: number,
      /** Written in the same transaction as a new refund (the audit log). */
      onCreated: (tx: Queryable) => Promise<unknown>,
    ) {
      return db.transaction(async (tx) => {
        await tx
          .select({ id: payOrders.id })
          .from(payOrders)
          .where(eq(payOrders.id, row.orderId))
          .for('update');
        const [before] = await tx.select().from(payRefunds).where(eq(payRefunds.refundNo, row.refundNo));
        if (before) return { refund: before, created: false } as const;
        const [sum] = await tx
          .select({ cents: sql<number>`coalesce(sum(${payRefunds.amount}), 0)::int` })
          .from(payRefunds)
          .where(and(eq(payRefunds.orderId, row.orderId), sql`${payRefunds.state} <> 'failed'`));
        const left = paid - Number(sum?.cents ?? 0);
        if (row.amount > left) return { refund: undefined, left } as const;
        const [made] = await tx.insert(payRefunds).values(row).returning();
        await onCreated(tx);
        return { refund: made as PayRefund, created: true } as const;
      });
    },

    /**
     * Once a refund has succeeded, what it does to what the order gave, once: under the order's and the refund's row
     * locks (two settlements of one refund queue and the second finds coinsTaken set; two refunds of one order
     * queue too). A coin order's refund that takes the coins back moves, through `act.coins`, at most what the
     * order brought less what its other refunds took (kept: nothing, 0); a VIP order's first succeeded refund ends
     * the VIP early by the days it gave (`act.vip`), a card order's takes back its days not yet claimed (`act.card`). The refund keeps how many coins, and the story says what.
     */
    settleGivenOnce(
      refundNo: string,
      act: {
        coins: (tx: Queryable, order: PayOrder, most: number) => Promise<number>;
        vip: (tx: Queryable, order: PayOrder, days: number) => Promise<unknown>;
        card: (tx: Queryable, order: PayOrder, days: number) => Promise<unknown>;
      },
    ) {
      return db.transaction(async (tx) => {
        const [first] = await tx.select().from(payRefunds).where(eq(payRefunds.refundNo, refundNo));
        if (!first) return undefined;
        const [order] = await tx
          .select()
          .from(payOrders)
          .where(eq(payOrders.id, first.orderId))
          .for('update');
        const [refund] = await tx
          .select()
          .from(payRefunds)
          .where(eq(payRefunds.refundNo, refundNo))
          .for('update');
        if (!order || refund?.state !== 'success' || refund.coinsTaken !== null) return undefined;
        const [others] = await tx
          .select({
            coins: sql<number>`coalesce(sum(${payRefunds.coinsTaken}), 0)::int`,
            settled: sql<number>`count(${payRefunds.coinsTaken})::int`,
          })
          .from(payRefunds)
          .where(eq(payRefunds.orderId, order.id));
        const vip = order.purpose === 'vip';
        let detail: string;
        let taken = 0;
        if (vip) {
          // The days go once, with the order's first succeeded refund, whatever the coins choice says.
          const first = Number(others?.settled ?? 0) === 0;
          if (first) await act.vip(tx, order, order.itemCount);
          detail = first ? `会员提前结束 ${order.itemCount} 天` : '会员天数已在此前的退款中扣回';
        } else if (order.purpose === 'card') {
          // As VIP: the card's days still to come go once, with the order's first succeeded refund; claimed stay.
          const first = Number(others?.settled ?? 0) === 0;
          if (first) await act.card(tx, order, order.itemCount);
          detail = first
            ? `月卡未领取的天数已扣回（至多 ${order.itemCount} 天）`
            : '月卡天数已在此前的退款中扣回';
        } else if (refund.coins === 'take') {
          // The first-recharge offer this order brought goes back with it: a refunded first payment must not
          // leave the reader the offer's coins for nothing (pay, take the offer, refund, keep it).
          const [offer] = await tx
            .select({ id: ledgerTransfers.id })
            .from(ledgerTransfers)
            .where(
              and(eq(ledgerTransfers.id, `first-pay:${order.userId}`), eq(ledgerTransfers.orderId, order.id)),
            );
          const brought = order.itemCount + order.presentCount + (offer ? order.firstPayBonus : 0);
          taken = await act.coins(tx, order, brought - Number(others?.coins ?? 0));
          detail = `收回 ${taken} 阅币`;
        } else detail = '保留阅币';
        await tx.update(payRefunds).set({ coinsTaken: taken }).where(eq(payRefunds.id, refund.id));
        await tx.insert(payOrderEvents).values({
          orderId: order.id,
          fromStatus: order.status,
          toStatus: order.status,
          source: 'refund-coins',
          detail: `退款 ${refund.refundNo}：${detail}`,
        });
        return { order, taken };
      });
    },

    async refundByNo(refundNo: string) {
      const [row] = await db.select().from(payRefunds).where(eq(payRefunds.refundNo, refundNo));
      return row;
    },

    async settleRefund(refundNo: string, state: string, gatewayRefundNo?: string) {
      const [row] = await db
        .update(payRefunds)
        .set({ state, updatedAt: sql`now()`, ...(gatewayRefundNo ? { gatewayRefundNo } : {}) })
        .where(eq(payRefunds.refundNo, refundNo))
        .returning();
      return row;
    },

    async markChecked(orderId: number) {
      await db.update(payOrders).set({ checkedAt: sql`now()` }).where(eq(payOrders.id, orderId));
    },

    /** created -> expired for every order whose time is up at `now`, each with its event, in one statement. */
    async expireStale(now: Date) {
      const result = await db.execute(sql`
        with expired as (
          update pay_orders set status = 'expired'
          where status = 'created' and expires_at <= ${now.toISOString()}::timestamptz
          returning id
        )
        insert into pay_order_events (order_id, from_status, to_status, source, detail)
        select id, 'created', 'expired', 'sweeper', 'not paid in time' from expired
        returning order_id as "orderId"`);
      return rowsOf<{ orderId: number }>(result).map((r) => r.orderId);
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
export type PayRefund = typeof payRefunds.$inferSelect;
