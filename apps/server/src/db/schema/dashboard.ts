import { bigint, date, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';

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
