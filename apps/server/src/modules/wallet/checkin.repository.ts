import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { books, checkinClaims, checkinRewards, users } from '../../db/schema/index.ts';
import { payDailyReward } from './daily-reward.repository.ts';
import { createLedgerRepository } from './ledger.repository.ts';

export type CheckinRewardRow = typeof checkinRewards.$inferSelect;
export type CheckinClaimRow = typeof checkinClaims.$inferSelect;

/**
 * Daily check-in's rows: the seven days' rewards, the claims (unique per reader and China day), and the reward's
 * payment inside the claim's transaction: coins through the ledger from system:bonus, tickets as reading_tickets
 * rows of source `checkin`.
 */
export function createCheckinRepository(db: Database) {
  const ledger = createLedgerRepository(db);
  return {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),

    rewards: (q: Queryable = db) => q.select().from(checkinRewards).orderBy(asc(checkinRewards.day)),

    /** The reader's claims on these China days. */
    claimsOn: (userId: number, days: string[], q: Queryable = db) =>
      q
        .select()
        .from(checkinClaims)
        .where(and(eq(checkinClaims.userId, userId), inArray(checkinClaims.day, days))),

    /** Locks the reader's row, so claims of one reader queue (false: no such reader). */
    async lockReader(tx: Queryable, userId: number) {
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      return row !== undefined;
    },

    /** The claim's row; undefined when (user, day) was claimed already (the unique key's answer). */
    async insertClaim(tx: Queryable, row: typeof checkinClaims.$inferInsert) {
      const [made] = await tx
        .insert(checkinClaims)
        .values(row)
        .onConflictDoNothing({ target: [checkinClaims.userId, checkinClaims.day] })
        .returning();
      return made;
    },

    /** Pays the claim's reward inside its transaction (daily-reward.repository.ts): coins, then tickets. */
    payReward: (tx: Queryable, a: Omit<Parameters<typeof payDailyReward>[2], 'source' | 'label'>) =>
      payDailyReward(tx, ledger, { ...a, source: 'checkin', label: '签到奖励' }),

    balanceOf: (userId: number, q: Queryable = db) => ledger.balanceOf(userId, q),

    /** Replaces the seven days' rewards (inside the caller's transaction, which audits it). */
    async replaceRewards(tx: Queryable, days: Omit<CheckinRewardRow, 'updatedAt'>[]) {
      await tx.delete(checkinRewards);
      await tx.insert(checkinRewards).values(days);
    },

    /** The rewards' rows under a lock, so two operators' saves queue and each audits what it replaced. */
    async lockRewards(tx: Queryable) {
      await tx.execute(sql`lock table checkin_rewards in share row exclusive mode`);
      return tx.select().from(checkinRewards).orderBy(asc(checkinRewards.day));
    },

    /** The books of `ids` that exist. */
    async booksOf(ids: number[], q: Queryable = db) {
      if (ids.length === 0) return [];
      return q.select({ bookId: books.id }).from(books).where(inArray(books.id, ids));
    },

    /** Claims per China day from `since` (YYYY-MM-DD) on, newest first; days without claims are left out. */
    async perDay(since: string) {
      const rows = await db
        .select({
          day: checkinClaims.day,
          claims: sql<number>`count(*)::int`,
          firstDays: sql<number>`(count(*) filter (where ${checkinClaims.streak} = 1))::int`,
          coins: sql<number>`coalesce(sum(${checkinClaims.coins}), 0)::int`,
          tickets: sql<number>`coalesce(sum(${checkinClaims.tickets}), 0)::int`,
        })
        .from(checkinClaims)
        .where(gte(checkinClaims.day, since))
        .groupBy(checkinClaims.day)
        .orderBy(desc(checkinClaims.day));
      return rows;
    },
  };
}

export type CheckinRepository = ReturnType<typeof createCheckinRepository>;
