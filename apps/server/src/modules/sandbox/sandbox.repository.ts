import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sandboxPayments, sandboxRefunds } from '../../db/schema/index.ts';
import { one, rowsOf } from '../../shared/rows.ts';

export type SandboxPayment = typeof sandboxPayments.$inferSelect;
export type OwedNotification = Pick<
  SandboxPayment,
  'tradeNo' | 'orderNo' | 'merchantId' | 'channel' | 'amount' | 'notifyUrl' | 'attempts'
>;

/** The sandbox gateway's own book (sandbox_payments): it never reads or writes our orders. */
export function createSandboxRepository(db: Database) {
  return {
    /** The payment for this order number: the one inserted now, or the one a first request already made. */
    async insertOnce(row: typeof sandboxPayments.$inferInsert) {
      await db.insert(sandboxPayments).values(row).onConflictDoNothing({ target: sandboxPayments.orderNo });
      return one(await db.select().from(sandboxPayments).where(eq(sandboxPayments.orderNo, row.orderNo)));
    },

    /**
     * The cashier's record of a refund: the one under this number before (asked again), else made now if the
     * payment is paid and its refunds stay within what was paid; undefined when refused. Under the payment's row
     * lock, so two refunds asked at once cannot together pass it.
     */
    refundOnce(row: { refundNo: string; tradeNo: string; amount: number }) {
      return db.transaction(async (tx) => {
        const [payment] = await tx
          .select()
          .from(sandboxPayments)
          .where(eq(sandboxPayments.tradeNo, row.tradeNo))
          .for('update');
        const [before] = await tx
          .select()
          .from(sandboxRefunds)
          .where(eq(sandboxRefunds.refundNo, row.refundNo));
        if (before) return before;
        if (payment?.status !== 'paid') return undefined;
        const [sum] = await tx
          .select({ cents: sql<number>`coalesce(sum(${sandboxRefunds.amount}), 0)::int` })
          .from(sandboxRefunds)
          .where(eq(sandboxRefunds.tradeNo, row.tradeNo));
        if (Number(sum?.cents ?? 0) + row.amount > payment.amount) return undefined;
        return one(await tx.insert(sandboxRefunds).values(row).returning());
      });
    },

    async byTradeNo(tradeNo: string) {
      const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.tradeNo, tradeNo));
      return row;
    },

    /** shown -> paid, owing a notification now; undefined when it was not 'shown'. */
    async confirm(tradeNo: string, now: Date) {
      const [row] = await db
        .update(sandboxPayments)
        .set({ status: 'paid', nextAttemptAt: now })
        .where(and(eq(sandboxPayments.tradeNo, tradeNo), eq(sandboxPayments.status, 'shown')))
        .returning();
      return row;
    },

    async cancel(tradeNo: string) {
      const [row] = await db
        .update(sandboxPayments)
        .set({ status: 'cancelled' })
        .where(and(eq(sandboxPayments.tradeNo, tradeNo), eq(sandboxPayments.status, 'shown')))
        .returning();
      return row;
    },

    /**
     * Takes up to `limit` owed notifications that are due, leasing each until `leaseUntil` so another process
     * (several servers on one PostgreSQL) does not send it at the same time. A crash mid-send only delays
     * the retry until the lease ends.
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<OwedNotification[]> {
      const result = await db.execute(sql`
        update sandbox_payments set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
        where trade_no in (
          select trade_no from sandbox_payments
          where status = 'paid' and acknowledged_at is null and next_attempt_at <= ${now.toISOString()}::timestamptz
          order by next_attempt_at limit ${limit}::int
          for update skip locked)
        returning trade_no as "tradeNo", order_no as "orderNo", merchant_id as "merchantId", channel, amount,
                  notify_url as "notifyUrl", attempts`);
      return rowsOf<OwedNotification>(result);
    },

    /**
     * Every owed notification becomes due at `now`: its retry wait (or a lease left by a process that stopped) is
     * over. For a start with the embedded database, where no other process can be sending one.
     */
    async allOwedDue(now: Date) {
      const result = await db.execute(sql`
        update sandbox_payments set next_attempt_at = ${now.toISOString()}::timestamptz
        where status = 'paid' and acknowledged_at is null and next_attempt_at > ${now.toISOString()}::timestamptz
        returning trade_no`);
      return rowsOf<{ trade_no: string }>(result).length;
    },

    async acknowledged(tradeNo: string, now: Date) {
      await db
        .update(sandboxPayments)
        .set({ acknowledgedAt: now, nextAttemptAt: null, attempts: sql`${sandboxPayments.attempts} + 1` })
        .where(eq(sandboxPayments.tradeNo, tradeNo));
    },

    async retryAt(tradeNo: string, at: Date) {
      await db
        .update(sandboxPayments)
        .set({ nextAttemptAt: at, attempts: sql`${sandboxPayments.attempts} + 1` })
        .where(eq(sandboxPayments.tradeNo, tradeNo));
    },
  };
}

export type SandboxRepository = ReturnType<typeof createSandboxRepository>;
