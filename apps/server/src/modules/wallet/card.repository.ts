import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { books, cardClaims, cardDays, cardRewards, monthlyCards, users } from '../../db/schema/index.ts';
import { payDailyReward } from './daily-reward.repository.ts';
import { createLedgerRepository } from './ledger.repository.ts';

export type CardRewardRow = typeof cardRewards.$inferSelect;
export type CardClaimRow = typeof cardClaims.$inferSelect;
export type CardDayRow = typeof cardDays.$inferSelect;

/**
 * The monthly card's rows: the daily reward (one row), each reader's card (its last China day), the card's changes
 * once under their ids (card_days), and the claims (unique per reader and China day) with their reward paid inside
 * the claim's transaction: coins through the ledger from system:bonus, tickets as reading_tickets of source `card`.
 */
export function createCardRepository(db: Database) {
  const ledger = createLedgerRepository(db);
  return {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),

    async reward(q: Queryable = db): Promise<CardRewardRow | undefined> {
      const [row] = await q.select().from(cardRewards).where(eq(cardRewards.id, 1));
      return row;
    },

    /** The reader's card (undefined: never bought). */
    async card(userId: number, q: Queryable = db) {
      const [row] = await q.select().from(monthlyCards).where(eq(monthlyCards.userId, userId));
      return row;
    },

    /** Locks the reader's row, so their claims and their card's changes queue (false: no such reader). */
    async lockReader(tx: Queryable, userId: number) {
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      return row !== undefined;
    },

    /** A change of the card under its id, before it is made: false when this id was recorded before. */
    async recordChange(tx: Queryable, row: typeof cardDays.$inferInsert) {
      const made = await tx
        .insert(cardDays)
        .values(row)
        .onConflictDoNothing({ target: cardDays.id })
        .returning({ id: cardDays.id });
      return made.length === 1;
    },

    async change(id: string, q: Queryable = db): Promise<CardDayRow | undefined> {
      const [row] = await q.select().from(cardDays).where(eq(cardDays.id, id));
      return row;
    },

    /** Sets the reader's card's last China day (made on the first purchase). */
    async setLastDay(tx: Queryable, userId: number, lastDay: string) {
      await tx
        .insert(monthlyCards)
        .values({ userId, lastDay })
        .onConflictDoUpdate({ target: monthlyCards.userId, set: { lastDay, updatedAt: sql`now()` } });
    },

    /** The reader's claims on these China days. */
    claimsOn: (userId: number, days: string[], q: Queryable = db) =>
      q
        .select()
        .from(cardClaims)
        .where(and(eq(cardClaims.userId, userId), inArray(cardClaims.day, days))),

    /** The claim's row; undefined when (user, day) was claimed already (the unique key's answer). */
    async insertClaim(tx: Queryable, row: typeof cardClaims.$inferInsert) {
      const [made] = await tx
        .insert(cardClaims)
        .values(row)
        .onConflictDoNothing({ target: [cardClaims.userId, cardClaims.day] })
        .returning();
      return made;
    },

    /** Pays the claim's reward inside its transaction (daily-reward.repository.ts): coins, then tickets. */
    payReward: (tx: Queryable, a: Omit<Parameters<typeof payDailyReward>[2], 'source' | 'label'>) =>
      payDailyReward(tx, ledger, { ...a, source: 'card', label: '月卡每日奖励' }),

    /** The reward's row under a lock, so two operators' saves queue and each audits what it replaced. */
    async lockReward(tx: Queryable) {
      await tx.execute(sql`lock table card_rewards in share row exclusive mode`);
      const [row] = await tx.select().from(cardRewards).where(eq(cardRewards.id, 1));
      return row;
    },

    /** Replaces the daily reward (inside the caller's transaction, which audits it). */
    async setReward(tx: Queryable, row: Omit<CardRewardRow, 'id' | 'updatedAt'>) {
      await tx
        .insert(cardRewards)
        .values({ id: 1, ...row })
        .onConflictDoUpdate({ target: cardRewards.id, set: { ...row, updatedAt: sql`now()` } });
    },

    /** The books of `ids` that exist. */
    async booksOf(ids: number[], q: Queryable = db) {
      if (ids.length === 0) return [];
      return q.select({ bookId: books.id }).from(books).where(inArray(books.id, ids));
    },

    /** Claims per China day from `since` (YYYY-MM-DD) on, newest first; days without claims are left out. */
    perDay: (since: string) =>
      db
        .select({
          day: cardClaims.day,
          claims: sql<number>`count(*)::int`,
          coins: sql<number>`coalesce(sum(${cardClaims.coins}), 0)::int`,
          tickets: sql<number>`coalesce(sum(${cardClaims.tickets}), 0)::int`,
        })
        .from(cardClaims)
        .where(gte(cardClaims.day, since))
        .groupBy(cardClaims.day)
        .orderBy(desc(cardClaims.day)),

    /** How many readers hold a card that runs on China day `day` (the console's figure beside the claims). */
    async runningOn(day: string) {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(monthlyCards)
        .where(gte(monthlyCards.lastDay, day));
      return row?.n ?? 0;
    },
  };
}

export type CardRepository = ReturnType<typeof createCardRepository>;
