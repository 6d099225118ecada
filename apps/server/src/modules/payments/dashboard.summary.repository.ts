import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  dashboardChapterDays,
  dashboardDays,
  dashboardFunnelDays,
  dashboardSummaryDays,
  dashboardUnlockDays,
} from '../../db/schema/index.ts';
import { chinaDate, chinaDay } from '../../shared/china-time.ts';
import { numberOf, rowsOf } from '../../shared/rows.ts';
import { type DaySummaryPart, dayIndex, daysOf, spans } from './dashboard.day-ranges.repository.ts';
import { createFunnelSummary } from './dashboard.funnel-summary.repository.ts';
import { createTopSummary } from './dashboard.top-summary.repository.ts';

/**
 * How long after a China midnight the day before counts as closed: a transaction that began before midnight (its
 * now() is its start) may still be writing that day's rows when the clock passes it.
 */
export const SETTLE_MS = 15 * 60_000;

/** One China day's figures for one promotion branch. */
export interface DayFigures {
  date: string;
  branchId: number;
  paidOrders: number;
  revenue: number;
  firstPayers: number;
  refunds: number;
  refundedAmount: number;
  newReaders: number;
}

const FIGURES = ['paidOrders', 'revenue', 'firstPayers', 'refunds', 'refundedAmount', 'newReaders'] as const;
const iso = (d: Date) => d.toISOString();
/**
 * The dashboard's daily summary (tables dashboard_days and dashboard_summary_days). A China day is summarised once
 * it is settled: closed (its end SETTLE_MS in the past) and without a refund still processing that was asked that
 * day. Nothing the service writes changes a settled day's figures (an order is paid, a refund asked, an account made
 * at the time of the write), so its rows, computed from the raw tables, stay equal to them. Days not settled (today,
 * or a day with a processing refund) are read raw each time; days settled but not yet summarised (after an upgrade,
 * a quiet week, or a rebuild) are summarised by the first read that needs them. Two servers summarising the same day
 * write the same rows; the second's insert changes nothing.
 */
export function createDashboardSummary(db: Database) {
  // Written with the daily figures, the same days in the same transaction: the top lists and unlocks, the funnel.
  const parts: DaySummaryPart[] = [createTopSummary(db), createFunnelSummary(db)];
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

  /** Straight from the raw tables: per China day of [from, to) and branch. */
  async function raw(from: Date, to: Date): Promise<DayFigures[]> {
    const [start, end] = [iso(from), iso(to)];
    const found = await rows<Record<string, unknown>>(sql`
      with paid as (
        select ${dayIndex(sql.raw('o.paid_at'), from)} as day, o.branch_id, count(*) as paid_orders,
               sum(o.pay_amount) as revenue,
               count(*) filter (where not exists (
                 select 1 from pay_orders p
                 where p.user_id = o.user_id and p.status = 'paid'
                   and (p.paid_at < o.paid_at or (p.paid_at = o.paid_at and p.id < o.id))
               )) as first_payers
        from pay_orders o
        where o.status = 'paid' and o.paid_at >= ${start}::timestamptz and o.paid_at < ${end}::timestamptz
        group by 1, 2
      ), refunded as (
        select ${dayIndex(sql.raw('r.created_at'), from)} as day, o.branch_id, count(*) as refunds,
               sum(r.amount) as refunded_amount
        from pay_refunds r join pay_orders o on o.id = r.order_id
        where r.state = 'success' and r.created_at >= ${start}::timestamptz and r.created_at < ${end}::timestamptz
        group by 1, 2
      ), joined as (
        select ${dayIndex(sql.raw('u.created_at'), from)} as day, u.branch_id, count(*) as new_readers
        from users u
        where u.created_at >= ${start}::timestamptz and u.created_at < ${end}::timestamptz
          and not u.made_from_console
        group by 1, 2
      ), keys as (
        select day, branch_id from paid union select day, branch_id from refunded
        union select day, branch_id from joined
      )
      select k.day, k.branch_id, p.paid_orders, p.revenue, p.first_payers, r.refunds, r.refunded_amount,
             j.new_readers
      from keys k
      left join paid p on p.day = k.day and p.branch_id = k.branch_id
      left join refunded r on r.day = k.day and r.branch_id = k.branch_id
      left join joined j on j.day = k.day and j.branch_id = k.branch_id`);
    return found.map((r) => ({
      date: chinaDate(from, numberOf(r.day)),
      branchId: numberOf(r.branch_id),
      paidOrders: numberOf(r.paid_orders),
      revenue: numberOf(r.revenue),
      firstPayers: numberOf(r.first_payers),
      refunds: numberOf(r.refunds),
      refundedAmount: numberOf(r.refunded_amount),
      newReaders: numberOf(r.new_readers),
    }));
  }

  /** The days of [from, to) already summarised. */
  async function summarised(from: Date, to: Date): Promise<Set<string>> {
    const found = await db
      .select({ day: dashboardSummaryDays.day })
      .from(dashboardSummaryDays)
      .where(
        and(gte(dashboardSummaryDays.day, chinaDate(from)), lt(dashboardSummaryDays.day, chinaDate(to))),
      );
    return new Set(found.map((r) => r.day));
  }

  /** The days of [from, to) that are settled at `now`: closed, and no refund asked that day still processing. */
  async function settled(from: Date, to: Date, now: Date): Promise<string[]> {
    const closedUntil = new Date(Math.min(to.getTime(), now.getTime() - SETTLE_MS));
    if (closedUntil <= from) return [];
    const pending = await rows<{ day: number }>(sql`
      select distinct ${dayIndex(sql.raw('r.created_at'), from)} as day from pay_refunds r
      where r.state = 'processing' and r.created_at >= ${iso(from)}::timestamptz
        and r.created_at < ${iso(closedUntil)}::timestamptz`);
    const blocked = new Set(pending.map((r) => chinaDate(from, numberOf(r.day))));
    return daysOf(from, to).filter((d) => {
      const day = chinaDay(d);
      return day !== undefined && day.to <= closedUntil && !blocked.has(d);
    });
  }

  /** Summarises `days` (settled ones) from the raw tables, in one transaction; already summarised ones are kept. */
  async function store(days: string[]): Promise<void> {
    for (const span of spans(days)) {
      const wanted = new Set(days);
      const figures = (await raw(span.from, span.to)).filter((f) => wanted.has(f.date));
      const inSpan = daysOf(span.from, span.to).filter((d) => wanted.has(d));
      const computed: Array<Awaited<ReturnType<DaySummaryPart['compute']>>> = [];
      for (const part of parts) computed.push(await part.compute(span.from, span.to));
      await db.transaction(async (tx) => {
        // Marks first: a concurrent summariser of the same day waits here, then inserts nothing.
        const marked = await tx
          .insert(dashboardSummaryDays)
          .values(inSpan.map((day) => ({ day })))
          .onConflictDoNothing()
          .returning({ day: dashboardSummaryDays.day });
        const mine = new Set(marked.map((r) => r.day));
        const values = figures
          .filter((f) => mine.has(f.date))
          .map(({ date, ...rest }) => ({ day: date, ...rest }));
        for (let i = 0; i < values.length; i += 1000) {
          await tx
            .insert(dashboardDays)
            .values(values.slice(i, i + 1000))
            .onConflictDoNothing();
        }
        for (const c of computed) await c.write(tx, mine);
      });
    }
  }

  /** Summarises the settled days of [from, to) not yet summarised; answers the days of [from, to) summarised. */
  async function summarise(from: Date, to: Date, now: Date): Promise<Set<string>> {
    const done = await summarised(from, to);
    const ready = (await settled(from, to, now)).filter((d) => !done.has(d));
    if (ready.length > 0) await store(ready);
    for (const d of ready) done.add(d);
    return done;
  }

  return {
    raw,
    summarise,

    /**
     * Per China day of [from, to) and branch: summarised days from the summary (summarising the settled days
     * missing from it first), the others straight from the raw tables.
     */
    async days(from: Date, to: Date, now: Date): Promise<DayFigures[]> {
      const done = await summarise(from, to, now);
      const kept = await db
        .select()
        .from(dashboardDays)
        .where(and(gte(dashboardDays.day, chinaDate(from)), lt(dashboardDays.day, chinaDate(to))));
      const out: DayFigures[] = kept
        .filter((r) => done.has(r.day))
        .map(({ day, ...rest }) => ({ date: day, ...rest }));
      const live = daysOf(from, to).filter((d) => !done.has(d));
      for (const span of spans(live)) out.push(...(await raw(span.from, span.to)));
      return out;
    },

    /**
     * Forgets the summary of the China days of [from, to) and summarises the settled ones again from the raw tables
     * (after data was loaded or corrected with past times). Returns how many days it summarised.
     */
    async rebuild(from: Date, to: Date, now: Date): Promise<number> {
      const days = daysOf(from, to);
      for (let i = 0; i < days.length; i += 500) {
        const chunk = days.slice(i, i + 500);
        await db.transaction(async (tx) => {
          await tx.delete(dashboardDays).where(inArray(dashboardDays.day, chunk));
          await tx.delete(dashboardChapterDays).where(inArray(dashboardChapterDays.day, chunk));
          await tx.delete(dashboardUnlockDays).where(inArray(dashboardUnlockDays.day, chunk));
          await tx.delete(dashboardFunnelDays).where(inArray(dashboardFunnelDays.eventDay, chunk));
          await tx.delete(dashboardSummaryDays).where(inArray(dashboardSummaryDays.day, chunk));
        });
      }
      const ready = await settled(from, to, now);
      await store(ready);
      return ready.length;
    },
  };
}

export type DashboardSummary = ReturnType<typeof createDashboardSummary>;

/** Sums per-branch figures per day. */
export function perDay(figures: DayFigures[]): Map<string, Omit<DayFigures, 'date' | 'branchId'>> {
  const out = new Map<string, Omit<DayFigures, 'date' | 'branchId'>>();
  for (const f of figures) {
    let d = out.get(f.date);
    if (!d) {
      d = { paidOrders: 0, revenue: 0, firstPayers: 0, refunds: 0, refundedAmount: 0, newReaders: 0 };
      out.set(f.date, d);
    }
    for (const k of FIGURES) d[k] += f[k];
  }
  return out;
}
