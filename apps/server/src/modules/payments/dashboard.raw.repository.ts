import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { numberOf, rowsOf } from '../../shared/rows.ts';

/** How long after a first visit the funnel follows the visitor. */
export const COHORT_DAYS = 30;

const iso = (d: Date) => d.toISOString();

export interface BookAggregate {
  bookId: number;
  title: string;
  coins: number;
  readers: number;
}

export interface ChapterAggregate {
  chapterId: number;
  bookId: number;
  bookTitle: string;
  number: number;
  title: string;
  coins: number;
  unlocks: number;
}

/**
 * The dashboard's lists computed straight from the raw tables over a range of instants [from, to): what the
 * summarised reads (dashboard.console.repository.ts) must answer, kept as their reference for the tests, and the
 * top books' readers (reading progress, which no day can keep: a reader's last reading moves when they read again).
 */
/** The top books' rows (`list` 'coins' or 'readers', as both reads select them) as the two sorted lists. */
export function bookLists(found: Record<string, unknown>[]) {
  const of = (list: string): BookAggregate[] =>
    found
      .filter((r) => r.list === list)
      .map((r) => ({
        bookId: numberOf(r.book_id),
        title: String(r.title),
        coins: numberOf(r.coins),
        readers: numberOf(r.readers),
      }));
  const byCoins = of('coins').sort((a, b) => b.coins - a.coins || a.bookId - b.bookId);
  const byReaders = of('readers').sort((a, b) => b.readers - a.readers || a.bookId - b.bookId);
  return { byCoins, byReaders };
}

/** The top chapters' rows (`list` 'coins' or 'unlocks', as both reads select them) as the two sorted lists. */
export function chapterLists(found: Record<string, unknown>[]) {
  const of = (list: string): ChapterAggregate[] =>
    found
      .filter((r) => r.list === list)
      .map((r) => ({
        chapterId: numberOf(r.chapter_id),
        bookId: numberOf(r.book_id),
        bookTitle: String(r.book_title),
        number: numberOf(r.number),
        title: String(r.title),
        coins: numberOf(r.coins),
        unlocks: numberOf(r.unlocks),
      }));
  const byCoins = of('coins').sort((a, b) => b.coins - a.coins || a.chapterId - b.chapterId);
  const byUnlocks = of('unlocks').sort((a, b) => b.unlocks - a.unlocks || a.chapterId - b.chapterId);
  return { byCoins, byUnlocks };
}

export function createDashboardRawReads(db: Database) {
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

  return {
    /**
     * Books by coins spent on their chapters and by readers whose reading was last in the range: the first `limit`
     * of each order (a book may be in both).
     */
    async topBooks(from: Date, to: Date, limit: number) {
      const [start, end] = [iso(from), iso(to)];
      const found = await rows<Record<string, unknown>>(sql`
        with spent as (
          select c.book_id, sum(cp.price) as coins
          from chapter_purchases cp join chapters c on c.id = cp.chapter_id
          where cp.created_at >= ${start}::timestamptz and cp.created_at < ${end}::timestamptz and cp.price > 0
          group by c.book_id
        ), reading as (
          select rp.book_id, count(*) as readers
          from reading_progress rp
          where rp.read_at >= ${start}::timestamptz and rp.read_at < ${end}::timestamptz
          group by rp.book_id
        ), agg as (
          select coalesce(s.book_id, r.book_id) as book_id, coalesce(s.coins, 0) as coins,
                 coalesce(r.readers, 0) as readers
          from spent s full join reading r on r.book_id = s.book_id
        )
        select 'coins' as list, a.*, b.title from (
          (select * from agg where coins > 0 order by coins desc, book_id limit ${limit})
        ) a join books b on b.id = a.book_id
        union all
        select 'readers' as list, a.*, b.title from (
          (select * from agg where readers > 0 order by readers desc, book_id limit ${limit})
        ) a join books b on b.id = a.book_id`);
      return bookLists(found);
    },

    /** Chapters by coins spent on them and by unlocks (bought, wait-for-free, tickets) in the range. */
    async topChapters(from: Date, to: Date, limit: number) {
      const [start, end] = [iso(from), iso(to)];
      const found = await rows<Record<string, unknown>>(sql`
        with u as (
          select cp.chapter_id, cp.price as coins from chapter_purchases cp
          where cp.created_at >= ${start}::timestamptz and cp.created_at < ${end}::timestamptz
          union all
          select cu.chapter_id, 0 from chapter_unlocks cu
          where cu.created_at >= ${start}::timestamptz and cu.created_at < ${end}::timestamptz
        ), agg as (
          select chapter_id, sum(coins) as coins, count(*) as unlocks from u group by chapter_id
        ), picked as (
          (select 'coins' as list, agg.* from agg where coins > 0 order by coins desc, chapter_id limit ${limit})
          union all
          (select 'unlocks' as list, agg.* from agg order by unlocks desc, chapter_id limit ${limit})
        )
        select p.list, p.chapter_id, p.coins, p.unlocks, c.book_id, c.number, c.title, b.title as book_title
        from picked p join chapters c on c.id = p.chapter_id join books b on b.id = c.book_id`);
      return chapterLists(found);
    },

    /**
     * Per promotion branch, the first visits in the range and, within 30 days of each: an account of the visitor
     * (registered with its visitor id, or the account the visit was marked with), an order of that account paid,
     * and those orders' cents.
     */
    async funnel(from: Date, to: Date) {
      // Set-based: the window's visits, their accounts (by visitor id, or the account the visit was marked with)
      // and those accounts' paid orders, each joined once (a lookup per visit took seconds on a year of data).
      const found = await rows<Record<string, unknown>>(sql`
        with v as materialized (
          select vm.id, vm.branch_id, vm.visitor_id, vm.user_id, vm.created_at,
                 vm.created_at + make_interval(days => ${COHORT_DAYS}) as until
          from visit_marks vm
          where vm.created_at >= ${iso(from)}::timestamptz and vm.created_at < ${iso(to)}::timestamptz
        ), acc as (
          select v.id as visit_id, u.id as user_id
          from v join users u on u.visitor_id = v.visitor_id
          where u.created_at < v.until
          union
          select v.id, u.id
          from v join users u on u.id = v.user_id
          where u.created_at < v.until
        ), paid as (
          select acc.visit_id, count(*) as n, sum(o.pay_amount) as cents
          from acc join v on v.id = acc.visit_id
          join pay_orders o on o.user_id = acc.user_id
          where o.status = 'paid' and o.paid_at >= v.created_at and o.paid_at < v.until
            -- No visit of the window is before its start: the paid-time index keeps the orders to those since.
            and o.paid_at >= ${iso(from)}::timestamptz
          group by acc.visit_id
        )
        select v.branch_id, coalesce(min(b.name), '') as branch_name, count(*) as visits,
               count(*) filter (where exists (select 1 from acc where acc.visit_id = v.id)) as accounts,
               count(paid.visit_id) as payers, coalesce(sum(paid.cents), 0) as revenue
        from v left join paid on paid.visit_id = v.id
        left join branch_settings b on b.branch_id = v.branch_id
        group by v.branch_id
        order by visits desc, v.branch_id`);
      return found.map((r) => ({
        branchId: numberOf(r.branch_id),
        branchName: String(r.branch_name ?? ''),
        firstVisits: numberOf(r.visits),
        accounts: numberOf(r.accounts),
        payers: numberOf(r.payers),
        revenue: numberOf(r.revenue),
      }));
    },

    /**
     * Per book and the reader's promotion branch, unlocks in the range by how: bought with coins (and the coins),
     * bought at 0 coins, wait-for-free and tickets. The `limit` rows with the most coins, then unlocks.
     */
    async byUnlock(from: Date, to: Date, limit: number) {
      const [start, end] = [iso(from), iso(to)];
      const found = await rows<Record<string, unknown>>(sql`
        with u as (
          select cp.user_id, cp.chapter_id, case when cp.price > 0 then 'coins' else 'free' end as how, cp.price
          from chapter_purchases cp
          where cp.created_at >= ${start}::timestamptz and cp.created_at < ${end}::timestamptz
          union all
          select cu.user_id, cu.chapter_id, cu.source, 0 from chapter_unlocks cu
          where cu.created_at >= ${start}::timestamptz and cu.created_at < ${end}::timestamptz
        ), agg as (
          select c.book_id, r.branch_id,
                 count(*) filter (where u.how = 'coins') as coins_unlocks, sum(u.price) as coins,
                 count(*) filter (where u.how = 'wait_free') as wait_free, count(*) filter (where u.how = 'ticket') as tickets,
                 count(*) filter (where u.how = 'free') as free, count(*) as total
          from u join chapters c on c.id = u.chapter_id join users r on r.id = u.user_id
          group by c.book_id, r.branch_id
          order by coins desc, total desc, c.book_id, r.branch_id
          limit ${limit}
        )
        select agg.*, b.title, coalesce(s.name, '') as branch_name
        from agg join books b on b.id = agg.book_id left join branch_settings s on s.branch_id = agg.branch_id
        order by agg.coins desc, agg.total desc, agg.book_id, agg.branch_id`);
      return found.map((r) => ({
        bookId: numberOf(r.book_id),
        bookTitle: String(r.title),
        branchId: numberOf(r.branch_id),
        branchName: String(r.branch_name ?? ''),
        coinsUnlocks: numberOf(r.coins_unlocks),
        coins: numberOf(r.coins),
        waitFreeUnlocks: numberOf(r.wait_free),
        ticketUnlocks: numberOf(r.tickets),
        freeUnlocks: numberOf(r.free),
      }));
    },
  };
}

export type DashboardRawReads = ReturnType<typeof createDashboardRawReads>;
