import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { numberOf, rowsOf } from '../../shared/rows.ts';
import { summaryWindow } from './dashboard.day-ranges.repository.ts';
import { createFunnelSummary } from './dashboard.funnel-summary.repository.ts';
import { COHORT_DAYS } from './dashboard.raw.repository.ts';
import { createRetentionRepository } from './dashboard.retention.repository.ts';
import { createDashboardSummary, perDay } from './dashboard.summary.repository.ts';
import { createTopSummary } from './dashboard.top-summary.repository.ts';

const DAY_SECONDS = 86_400;

const iso = (d: Date) => d.toISOString();

export interface DailyRow {
  day: number;
  paidOrders: number;
  revenue: number;
  firstPayers: number;
  refunds: number;
  refundedAmount: number;
  newReaders: number;
}

/**
 * What the dashboard reads: paid orders, refunds, new accounts, chapter purchases and unlocks, reading progress and
 * first visits, each over a range of instants [from, to): settled days from the summaries (filled on read), the
 * other days and what no day can keep (reading, replaceable unlocks) straight from the tables the service writes.
 */
export function createDashboardRepository(db: Database) {
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));
  const summary = createDashboardSummary(db);
  const top = createTopSummary(db);
  const funnel = createFunnelSummary(db);

  return {
    summary,
    retention: createRetentionRepository(db),

    /**
     * Per day from `from` (day 0, a China midnight) to `to`: paid orders, their cents and first payers; refunds; new
     * accounts. Settled days from the daily summary, the others (today) from the raw tables.
     */
    async daily(from: Date, to: Date, now: Date): Promise<DailyRow[]> {
      const byDate = perDay(await summary.days(from, to, now));
      const out: DailyRow[] = [];
      for (let day = 0; day * DAY_SECONDS * 1000 < to.getTime() - from.getTime(); day++) {
        const figures = byDate.get(chinaDate(from, day));
        if (figures) out.push({ day, ...figures });
      }
      return out;
    },

    /** Distinct readers with an order paid in [start, to), for each start. */
    async payingReaders(starts: Date[], to: Date): Promise<number[]> {
      const earliest = new Date(Math.min(...starts.map((s) => s.getTime())));
      const counts = sql.join(
        starts.map(
          (s, i) =>
            sql`count(distinct o.user_id) filter (where o.paid_at >= ${iso(s)}::timestamptz) as ${sql.raw(`w${i}`)}`,
        ),
        sql`, `,
      );
      const [row] = await rows<Record<string, unknown>>(sql`
        select ${counts} from pay_orders o
        where o.status = 'paid' and o.paid_at >= ${iso(earliest)}::timestamptz and o.paid_at < ${iso(to)}::timestamptz`);
      return starts.map((_, i) => numberOf(row?.[`w${i}`]));
    },

    /**
     * Summarises the settled China days of [from, to) not yet summarised (every summary of a day together); answers
     * the days of [from, to) that are.
     */
    summarise: (from: Date, to: Date, now: Date) => summary.summarise(from, to, now),

    /** Books by coins and by readers over [from, to); `done`: the summarised days. */
    topBooks: (from: Date, to: Date, limit: number, done: Set<string>) =>
      top.topBooks(summaryWindow(from, to, done), limit),

    /** Chapters by coins spent on them and by unlocks (bought, wait-for-free, tickets) over [from, to). */
    topChapters: (from: Date, to: Date, limit: number, done: Set<string>) =>
      top.topChapters(summaryWindow(from, to, done), limit),

    /**
     * Per promotion branch, the first visits of [from, to) and, within 30 days of each, an account, a paid order and
     * their cents: the events of the summarised days in `done` from the summary, the others raw.
     */
    funnel: (from: Date, to: Date, done: Set<string>) => {
      const events = summaryWindow(
        from,
        new Date(to.getTime() + (COHORT_DAYS + 1) * DAY_SECONDS * 1000),
        done,
      );
      return funnel.funnel({ ...events, to });
    },

    /** Per book and the reader's promotion branch, unlocks over [from, to) by how: the `limit` rows with most coins. */
    byUnlock: (from: Date, to: Date, limit: number, done: Set<string>) =>
      top.byUnlock(summaryWindow(from, to, done), limit),
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
