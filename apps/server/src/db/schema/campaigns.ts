import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { books } from './catalog.ts';

/**
 * A campaign on one book (the console's 限免与折扣): `limited_free` makes its chapters readable without an unlock,
 * `discount` takes discountPercent off their coin price, between startsAt (included) and endsAt (excluded). Nothing
 * is stored per reader: the may-read function and the price a purchase charges ask for the live campaigns.
 * chapterIds null: every chapter of the book; branchId null: every reader, else readers of that promotion branch
 * (users.branch_id, as the server knows it).
 */
export const unlockCampaigns = pgTable(
  'unlock_campaigns',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    kind: text().notNull(),
    title: text().notNull(),
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    chapterIds: integer().array(),
    branchId: integer(),
    // discount only: the percent off the coin price (1 to 90)
    discountPercent: integer(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('unlock_campaigns_kind', sql`${t.kind} in ('limited_free', 'discount')`),
    check(
      'unlock_campaigns_discount',
      sql`(${t.kind} = 'discount') = (${t.discountPercent} is not null) and (${t.discountPercent} is null or ${t.discountPercent} between 1 and 90)`,
    ),
    // Ended early, a campaign's window may close to nothing (startsAt = endsAt); never backwards.
    check('unlock_campaigns_window', sql`${t.endsAt} >= ${t.startsAt}`),
    index('unlock_campaigns_by_book').on(t.bookId, t.endsAt),
  ],
);
