import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { dashboardFunnelDays } from '../../db/schema/index.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { numberOf } from '../../shared/rows.ts';
import {
  type DaySummaryPart,
  dayIndex,
  type SummaryWindow,
  serialReads,
  summarisedDay,
} from './dashboard.day-ranges.repository.ts';
import { COHORT_DAYS } from './dashboard.raw.repository.ts';

const iso = (d: Date) => d.toISOString();
const DAY_MS = 86_400_000;
const CHUNK = 1000;

export interface FunnelRow {
  cohortDay: string;
  eventDay: string;
  branchId: number;
  visits: number;
  accounts: number;
  payers: number;
  revenue: number;
}

/**
 * What happened in [eventFrom, eventTo) to the first visits made in [cohortFrom, cohortTo), per cohort day, event day
 * (both counted from the China midnight `cohortFrom`) and branch. A visit's events: the visit itself; its first
 * account (registered with its visitor id, or the account it was marked with, made within its 30 days; an account
 * older than the visit counts at the visit); its first order paid within its 30 days by such an account; and each of
 * those orders' cents. None of them changes once its day is over: accounts are made, visits marked and orders paid at
 * the time of the write (a late payment lands on the day it arrives; a refunded order stays paid), and a later
 * account or order cannot be anyone's first before it. Only the visits an event of the range can touch are looked
 * at: those made in it, those of an account made in it, and those of an account with an order paid in it.
 */
const events = (cohortFrom: Date, cohortTo: Date, eventFrom: Date, eventTo: Date) => {
  const [c0, c1, e0, e1] = [cohortFrom, cohortTo, eventFrom, eventTo].map(iso);
  return sql`
    with touched as (
      select vm.id from visit_marks vm
      where vm.created_at >= ${e0}::timestamptz and vm.created_at < ${e1}::timestamptz
      union
      select vm.id from users u join visit_marks vm on vm.visitor_id = u.visitor_id
      where u.created_at >= ${e0}::timestamptz and u.created_at < ${e1}::timestamptz
      union
      select vm.id from pay_orders o join users u on u.id = o.user_id join visit_marks vm on vm.visitor_id = u.visitor_id
      where o.status = 'paid' and o.paid_at >= ${e0}::timestamptz and o.paid_at < ${e1}::timestamptz
      union
      select vm.id from pay_orders o join visit_marks vm on vm.user_id = o.user_id
      where o.status = 'paid' and o.paid_at >= ${e0}::timestamptz and o.paid_at < ${e1}::timestamptz
    ), v as materialized (
      select vm.id, vm.branch_id, vm.visitor_id, vm.user_id, vm.created_at,
             vm.created_at + make_interval(days => ${COHORT_DAYS}) as until
      from visit_marks vm join touched t on t.id = vm.id
      where vm.created_at >= ${c0}::timestamptz and vm.created_at < ${c1}::timestamptz
    ), acc as (
      select v.id as visit_id, u.id as user_id, u.created_at
      from v join users u on u.visitor_id = v.visitor_id
      where u.created_at < v.until
      union
      select v.id, u.id, u.created_at
      from v join users u on u.id = v.user_id
      where u.created_at < v.until
    ), paid as (
      select acc.visit_id, o.paid_at, o.pay_amount
      from acc join v on v.id = acc.visit_id
      join pay_orders o on o.user_id = acc.user_id
      where o.status = 'paid' and o.paid_at >= v.created_at and o.paid_at < v.until
    ), e as (
      select v.id as visit_id, v.created_at as at, 1 as visits, 0 as accounts, 0 as payers, 0::bigint as cents from v
      union all
      select acc.visit_id, greatest(min(acc.created_at), min(v.created_at)), 0, 1, 0, 0
      from acc join v on v.id = acc.visit_id group by acc.visit_id
      union all
      select visit_id, min(paid_at), 0, 0, 1, 0 from paid group by visit_id
      union all
      select visit_id, paid_at, 0, 0, 0, pay_amount from paid
    )
    select ${dayIndex(sql.raw('v.created_at'), cohortFrom)} as cohort, ${dayIndex(sql.raw('e.at'), cohortFrom)} as event,
           v.branch_id, sum(e.visits) as visits, sum(e.accounts) as accounts, sum(e.payers) as payers,
           sum(e.cents) as revenue
    from e join v on v.id = e.visit_id
    where e.at >= ${e0}::timestamptz and e.at < ${e1}::timestamptz
    group by 1, 2, 3`;
};

/**
 * The funnel's summary by cohort day and event day (dashboard_funnel_days): a day's rows are the events of that day,
 * for every cohort still open then; the day is summarised with the others once settled. The read adds, per branch,
 * the summarised event days of the window's cohorts and the events of the other days, raw.
 */
export function createFunnelSummary(db: Database) {
  const rows = serialReads(db);

  /** Events of [eventFrom, eventTo) of the visits of [cohortFrom, cohortTo), per cohort day, event day and branch. */
  async function raw(cohortFrom: Date, cohortTo: Date, eventFrom: Date, eventTo: Date): Promise<FunnelRow[]> {
    const found = await rows<Record<string, unknown>>(events(cohortFrom, cohortTo, eventFrom, eventTo));
    return found.map((r) => ({
      cohortDay: chinaDate(cohortFrom, numberOf(r.cohort)),
      eventDay: chinaDate(cohortFrom, numberOf(r.event)),
      branchId: numberOf(r.branch_id),
      visits: numberOf(r.visits),
      accounts: numberOf(r.accounts),
      payers: numberOf(r.payers),
      revenue: numberOf(r.revenue),
    }));
  }

  const part: DaySummaryPart = {
    async compute(from: Date, to: Date) {
      // Every cohort whose 30 days reach into [from, to): visits from 31 days before it.
      const found = await raw(new Date(from.getTime() - (COHORT_DAYS + 1) * DAY_MS), to, from, to);
      return {
        async write(tx: Queryable, days: Set<string>) {
          const mine = found.filter((r) => days.has(r.eventDay));
          for (let i = 0; i < mine.length; i += CHUNK) {
            await tx
              .insert(dashboardFunnelDays)
              .values(mine.slice(i, i + CHUNK))
              .onConflictDoNothing();
          }
        },
      };
    },
  };

  return {
    ...part,
    raw,

    /**
     * Per promotion branch, the first visits of the window's days (`w.from`, `w.to`) and, within 30 days of each, an
     * account, a paid order and those orders' cents: the summary's rows of the summarised event days in
     * `w.summarised`, and the events of the days in `w.live` read raw (both over the window and the 30 days after it).
     */
    async funnel(w: SummaryWindow) {
      const kept = await rows<Record<string, unknown>>(sql`
        select branch_id, sum(visits) as visits, sum(accounts) as accounts, sum(payers) as payers,
               sum(revenue) as revenue
        from dashboard_funnel_days
        where cohort_day >= ${chinaDate(w.from)}::date and cohort_day < ${chinaDate(w.to)}::date
          and ${summarisedDay(sql.raw('event_day'), w.summarised)}
        group by branch_id`);
      const byBranch = new Map<
        number,
        { visits: number; accounts: number; payers: number; revenue: number }
      >();
      const add = (
        branchId: number,
        f: { visits: number; accounts: number; payers: number; revenue: number },
      ) => {
        const b = byBranch.get(branchId) ?? { visits: 0, accounts: 0, payers: 0, revenue: 0 };
        b.visits += f.visits;
        b.accounts += f.accounts;
        b.payers += f.payers;
        b.revenue += f.revenue;
        byBranch.set(branchId, b);
      };
      for (const r of kept) {
        add(numberOf(r.branch_id), {
          visits: numberOf(r.visits),
          accounts: numberOf(r.accounts),
          payers: numberOf(r.payers),
          revenue: numberOf(r.revenue),
        });
      }
      for (const span of w.live)
        for (const r of await raw(w.from, w.to, span.from, span.to)) add(r.branchId, r);
      const names = new Map(
        (
          await rows<{ branch_id: number; name: string }>(sql`select branch_id, name from branch_settings`)
        ).map((r) => [numberOf(r.branch_id), String(r.name)]),
      );
      return [...byBranch.entries()]
        .filter(([, f]) => f.visits > 0)
        .map(([branchId, f]) => ({
          branchId,
          branchName: names.get(branchId) ?? '',
          firstVisits: f.visits,
          accounts: f.accounts,
          payers: f.payers,
          revenue: f.revenue,
        }))
        .sort((a, b) => b.firstVisits - a.firstVisits || a.branchId - b.branchId);
    },
  };
}
