import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { books, chapters } from './catalog.ts';
import { users } from './users.ts';

/**
 * A stored right to read one chapter beyond coins: a wait-for-free rental or a reading
 * ticket's unlock. The id is deterministic, `unlock:{userId}:{chapterId}`, so concurrent unlocks of one chapter
 * collide on it and make one live unlock; an ended one is replaced in place by the next unlock. Coins bought stay in
 * chapter_purchases (forever), VIP and free are decided from the book and the reader, never stored here.
 */
export const chapterUnlocks = pgTable(
  'chapter_unlocks',
  {
    id: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    chapterId: integer()
      .notNull()
      .references(() => chapters.id, { onDelete: 'restrict' }),
    source: text().notNull(),
    // null: no end (a permanent ticket's unlock)
    endsAt: timestamp({ withTimezone: true }),
    // The ticket spent on it, when source is ticket.
    ticketId: integer().references(() => readingTickets.id, { onDelete: 'restrict' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('chapter_unlocks_source', sql`${t.source} in ('wait_free', 'ticket')`),
    check('chapter_unlocks_ticket', sql`(${t.source} = 'ticket') = (${t.ticketId} is not null)`),
    index('chapter_unlocks_by_user_chapter').on(t.userId, t.chapterId),
    // The dashboard's unlocks per book and chapter over a range of days.
    index('chapter_unlocks_by_created_at').on(t.createdAt),
  ],
);

/**
 * A reading ticket (阅读券). Granted once per grant id (`tickets:{userId}:{requestId}:{n}`), spent once (spentAt set
 * by a conditional update that also requires it unexpired), never after its expiry (a CHECK, whatever the code does).
 * kind: `read` (any priced chapter but early access) or `presale` (also early-access chapters). scope: null for any
 * book, else the book ids it may be spent on.
 */
export const readingTickets = pgTable(
  'reading_tickets',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    grantId: text().notNull().unique(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text().notNull(),
    // null: the unlock it makes is permanent
    rentalHours: integer(),
    scopeBookIds: integer().array(),
    source: text().notNull(),
    reason: text().notNull().default(''),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    spentAt: timestamp({ withTimezone: true }),
    spentChapterId: integer().references(() => chapters.id, { onDelete: 'restrict' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('reading_tickets_kind', sql`${t.kind} in ('read', 'presale')`),
    check(
      'reading_tickets_source',
      sql`${t.source} in ('grant', 'campaign', 'first_visit', 'branch_offer', 'checkin', 'card')`,
    ),
    check('reading_tickets_rental', sql`${t.rentalHours} is null or ${t.rentalHours} > 0`),
    check(
      'reading_tickets_spent',
      sql`(${t.spentAt} is null) = (${t.spentChapterId} is null) and (${t.spentAt} is null or ${t.spentAt} < ${t.expiresAt})`,
    ),
    index('reading_tickets_usable').on(t.userId, t.expiresAt).where(sql`${t.spentAt} is null`),
  ],
);

/**
 * A book's unlock rules as the console sets them; a book without a row has none (coins only). branchId null: the
 * book's default rules; else a variant for the readers of that promotion branch (users.branch_id, as the server knows
 * it), used instead of the default for them. One row per (book, branch), the default included (nulls not distinct).
 */
export const bookUnlockRules = pgTable(
  'book_unlock_rules',
  {
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    branchId: integer(),
    // null: no wait-for-free
    waitMinutes: integer(),
    rentalHours: integer().notNull().default(72),
    newReaderExtra: integer().notNull().default(0),
    earlyAccessChapters: integer().notNull().default(0),
    // 0: no bundle; else the bundle costs (100 - bundlePercent)% of the remaining chapters' prices
    bundlePercent: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('book_unlock_rules_wait', sql`${t.waitMinutes} is null or ${t.waitMinutes} >= 1`),
    check('book_unlock_rules_rental', sql`${t.rentalHours} >= 1`),
    check('book_unlock_rules_extra', sql`${t.newReaderExtra} >= 0`),
    check('book_unlock_rules_early', sql`${t.earlyAccessChapters} >= 0`),
    check('book_unlock_rules_bundle', sql`${t.bundlePercent} between 0 and 90`),
    unique('book_unlock_rules_book_branch').on(t.bookId, t.branchId).nullsNotDistinct(),
  ],
);

/** The per-reader-and-book wait: the reader may unlock one chapter wait-free at or after readyAt. */
export const unlockWaitClocks = pgTable(
  'unlock_wait_clocks',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    readyAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bookId] })],
);
