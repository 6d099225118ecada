import { eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { users, vipAdjustments } from '../../db/schema/index.ts';
import { createLedgerRepository } from './ledger.repository.ts';

/**
 * The console's changes to what a reader holds: coins through the ledger's `adjust` (the only code that moves coins),
 * VIP days on the reader's row (only the wallet writes vip_end), each request once, inside a transaction the service
 * opens so the audit entry is kept with the change or not at all.
 */
export function createCoinsConsoleRepository(db: Database) {
  const ledger = createLedgerRepository(db);
  return {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),

    adjustCoins: ledger.adjust,

    async readerExists(tx: Queryable, userId: number) {
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return row !== undefined;
    },

    /** The reader's VIP end under their row's lock (undefined: no such reader). */
    async lockVip(tx: Queryable, userId: number) {
      const [row] = await tx
        .select({ vipEnd: users.vipEnd })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      return row;
    },

    async vipAdjustment(tx: Queryable, id: string) {
      const [row] = await tx.select().from(vipAdjustments).where(eq(vipAdjustments.id, id));
      return row;
    },

    /**
     * Moves vip_end by `days` (the row is locked by lockVip): a grant from max(now, vip_end), a shortening from
     * vip_end and never before now. Records the request; answers the new end.
     */
    async moveVip(tx: Queryable, a: { id: string; userId: number; days: number; before: Date | null }) {
      const [row] = await tx
        .update(users)
        .set({
          vipEnd:
            a.days > 0
              ? sql`greatest(now(), coalesce(${users.vipEnd}, now())) + make_interval(days => ${a.days}::int)`
              : sql`greatest(now(), ${users.vipEnd} + make_interval(days => ${a.days}::int))`,
        })
        .where(eq(users.id, a.userId))
        .returning({ vipEnd: users.vipEnd });
      const after = row?.vipEnd ?? null;
      await tx.insert(vipAdjustments).values({
        id: a.id,
        userId: a.userId,
        days: a.days,
        vipEndBefore: a.before,
        vipEndAfter: after,
      });
      return after;
    },
  };
}

export type CoinsConsoleRepository = ReturnType<typeof createCoinsConsoleRepository>;
