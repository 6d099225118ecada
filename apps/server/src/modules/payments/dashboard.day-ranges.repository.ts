import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { chinaDate, chinaDay } from '../../shared/china-time.ts';
import { rowsOf } from '../../shared/rows.ts';

// What the dashboard's summaries share: China days as ranges of instants, and the raw part of a read.

const DAY_MS = 86_400_000;
const iso = (d: Date) => d.toISOString();

/** The day of an instant counted from the China midnight `start` (0 for [start, start + 1 day)), in SQL. */
export const dayIndex = (column: ReturnType<typeof sql.raw>, start: Date) =>
  sql`floor(extract(epoch from (${column} - ${iso(start)}::timestamptz)) / 86400)::int`;

/** The China days [from, to) as 'YYYY-MM-DD' (from and to China midnights). */
export const daysOf = (from: Date, to: Date) =>
  Array.from({ length: Math.round((to.getTime() - from.getTime()) / DAY_MS) }, (_, i) => chinaDate(from, i));

/** Consecutive runs of days (sorted) as [from, to) instants. */
export function spans(days: string[]): Array<{ from: Date; to: Date }> {
  const out: Array<{ from: Date; to: Date }> = [];
  for (const d of [...days].sort()) {
    const day = chinaDay(d);
    if (!day) continue;
    const last = out.at(-1);
    if (last && last.to.getTime() === day.from.getTime()) last.to = day.to;
    else out.push({ ...day });
  }
  return out;
}

/** `column` within one of `ranges` (false when there is none), in SQL: the raw part of a read. */
export const inSpans = (column: ReturnType<typeof sql.raw>, ranges: Array<{ from: Date; to: Date }>) =>
  ranges.length === 0
    ? sql`false`
    : sql`(${sql.join(
        ranges.map(
          (r) => sql`(${column} >= ${iso(r.from)}::timestamptz and ${column} < ${iso(r.to)}::timestamptz)`,
        ),
        sql` or `,
      )})`;

/**
 * The other summaries written with the daily one, for the same days in the same transaction: each computes its
 * rows of the China days [from, to) from the raw tables, then writes those of the days it is given.
 */
export interface DaySummaryPart {
  compute(from: Date, to: Date): Promise<{ write(tx: Queryable, days: Set<string>): Promise<void> }>;
}

/**
 * A window to read: its instants [from, to), the China days of it that are summarised, and the other days (not yet
 * settled, or not yet summarised) as ranges of instants to read raw.
 */
export interface SummaryWindow {
  from: Date;
  to: Date;
  summarised: string[];
  live: Array<{ from: Date; to: Date }>;
}

/** The summarised days of a window as one SQL array parameter (PGlite and pg take a text the same way). */
export const dayList = (days: string[]) => sql`string_to_array(${days.join(',')}, ',')::date[]`;

/**
 * `column` (a date) one of the summarised `days`, in SQL: false when there is none, and bounded by the first and last
 * so the summary's primary key (the day first) finds them rather than a scan of every day kept.
 */
export const summarisedDay = (column: ReturnType<typeof sql.raw>, days: string[]) => {
  const sorted = [...days].sort();
  if (sorted.length === 0) return sql`false`;
  return sql`(${column} >= ${sorted[0]}::date and ${column} <= ${sorted.at(-1)}::date and ${column} = any(${dayList(sorted)}))`;
};

/** The window [from, to) read against the summarised days `done`: which of its days to sum, which to read raw. */
export function summaryWindow(from: Date, to: Date, done: Set<string>): SummaryWindow {
  const days = daysOf(from, to);
  return {
    from,
    to,
    summarised: days.filter((d) => done.has(d)),
    live: spans(days.filter((d) => !done.has(d))),
  };
}

/**
 * The rows of a dashboard read, run without parallel workers: each read is a few thousand rows at most, and on a busy
 * machine starting the workers cost far more than the work (EXPLAIN ANALYZE of the day's unlocks: 6 ms of work, 1 s
 * gathering the workers' rows). `set local` keeps the setting to this statement's transaction.
 */
export function serialReads(db: Database) {
  return async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
    db.transaction(async (tx) => {
      await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
      return rowsOf<T>(await tx.execute(query));
    });
}
