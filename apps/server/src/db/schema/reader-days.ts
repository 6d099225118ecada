import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The China days (Asia/Shanghai) each reader was seen: a session of theirs answered a call that day (visitors
 * too: they are readers). Written by the users module when it refreshes the reader's last-seen time on a new
 * China day, with insert … on conflict do nothing: one row per reader and day, and at most one write for it. A
 * request of the reader app opened from the console (staff looking at a reader's page) writes nothing.
 *
 * `age` is the day's distance from the day the account was made (0: that day) and `branch_id` the account's
 * promotion branch (never changed once made), both copied at the write so the dashboard's retention reads this
 * table alone.
 */
export const readerDays = pgTable(
  'reader_days',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    age: integer().notNull(),
    branchId: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day] }),
    // The dashboard's retention reads only first days and days 1, 7 and 30 of a range of days.
    index('reader_days_for_retention')
      .on(t.day, t.age, t.branchId, t.userId)
      .where(sql`${t.age} in (0, 1, 7, 30)`),
  ],
);
