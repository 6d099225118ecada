import { bigint, date, index, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';

/**
 * The dashboard's daily summary: per settled China day and promotion branch, the day's paid orders (by when paid,
 * the order's branch), their cents and first payers, successful refunds (by when asked, the order's branch) and new
 * accounts (the account's branch). Written only by the dashboard's summary (payments/dashboard.summary.repository.ts) from the
 * raw tables, for days that can no longer change; a day without a row in dashboard_summary_days is read raw.
 */
export const dashboardDays = pgTable(
  'dashboard_days',
  {
    day: date({ mode: 'string' }).notNull(),
    branchId: integer().notNull(),
    paidOrders: integer().notNull().default(0),
    revenue: bigint({ mode: 'number' }).notNull().default(0),
    firstPayers: integer().notNull().default(0),
    refunds: integer().notNull().default(0),
    refundedAmount: bigint({ mode: 'number' }).notNull().default(0),
    newReaders: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.branchId] })],
);

/** The China days whose rows dashboard_days holds (a day with no business has no rows but is here). */
export const dashboardSummaryDays = pgTable('dashboard_summary_days', {
  day: date({ mode: 'string' }).primaryKey(),
  summarisedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Per settled China day and chapter: coins spent on it and its unlocks (purchases, and ticket unlocks without an end).
 * Wait-for-free and rented ticket unlocks are not here: an ended one is replaced in place by the next unlock (its
 * day moves to that day), so they are always read raw. Written with dashboard_days, for the days
 * dashboard_summary_days lists.
 */
export const dashboardChapterDays = pgTable(
  'dashboard_chapter_days',
  {
    day: date({ mode: 'string' }).notNull(),
    chapterId: integer().notNull(),
    coins: bigint({ mode: 'number' }).notNull().default(0),
    unlocks: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.chapterId] })],
);

/**
 * Per settled China day, book and the reader's promotion branch: unlocks by how (bought with coins and the coins,
 * bought at 0 coins, ticket unlocks without an end). Same days and same rule as dashboard_chapter_days.
 */
export const dashboardUnlockDays = pgTable(
  'dashboard_unlock_days',
  {
    day: date({ mode: 'string' }).notNull(),
    bookId: integer().notNull(),
    branchId: integer().notNull(),
    coinsUnlocks: integer().notNull().default(0),
    coins: bigint({ mode: 'number' }).notNull().default(0),
    freeUnlocks: integer().notNull().default(0),
    waitFreeUnlocks: integer().notNull().default(0),
    ticketUnlocks: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.bookId, t.branchId] })],
);

/**
 * The funnel by cohort day and event day, per promotion branch: of the first visits of the China day `cohortDay`,
 * what happened on the settled China day `eventDay` (the visits themselves on their own day; a visit's first
 * account, its first paid order, and its orders' cents on the day each came). The day a row belongs to (its mark in
 * dashboard_summary_days) is `eventDay`.
 */
export const dashboardFunnelDays = pgTable(
  'dashboard_funnel_days',
  {
    cohortDay: date({ mode: 'string' }).notNull(),
    eventDay: date({ mode: 'string' }).notNull(),
    branchId: integer().notNull(),
    visits: integer().notNull().default(0),
    accounts: integer().notNull().default(0),
    payers: integer().notNull().default(0),
    revenue: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.cohortDay, t.eventDay, t.branchId] }),
    // A rebuild forgets a day's rows by their event day.
    index('dashboard_funnel_days_by_event').on(t.eventDay),
  ],
);
