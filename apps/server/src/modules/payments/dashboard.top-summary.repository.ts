import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { dashboardChapterDays, dashboardUnlockDays } from '../../db/schema/index.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { numberOf, rowsOf } from '../../shared/rows.ts';
import {
  type DaySummaryPart,
  dayIndex,
  inSpans,
  type SummaryWindow,
  serialReads,
  summarisedDay,
} from './dashboard.day-ranges.repository.ts';
import { bookLists, chapterLists } from './dashboard.raw.repository.ts';

const iso = (d: Date) => d.toISOString();
const CHUNK = 1000;

/**
 * The unlocks that stay on their day: chapter purchases (kept forever) and ticket unlocks without an end. A
 * wait-for-free or rented unlock, once ended, is replaced in place by the reader's next unlock of the chapter (its
 * time becomes that one's), so a day's count of them can still fall: they are never summarised, always read raw.
 */
const lasting = (from: Date, to: Date) => sql`
  select cp.created_at as at, cp.user_id, cp.chapter_id,
         case when cp.price > 0 then 'coins' else 'free' end as how, cp.price
  from chapter_purchases cp
  where cp.created_at >= ${iso(from)}::timestamptz and cp.created_at < ${iso(to)}::timestamptz
  union all
  select cu.created_at, cu.user_id, cu.chapter_id, cu.source, 0
  from chapter_unlocks cu
  where cu.created_at >= ${iso(from)}::timestamptz and cu.created_at < ${iso(to)}::timestamptz
    and cu.ends_at is null`;

/**
 * Every unlock of a window that is not in its summarised days: purchases and lasting unlocks of the live days, and
 * the replaceable unlocks (with an end) of the whole window. Columns: user_id, chapter_id, how, price.
 */
const unsummarised = (w: SummaryWindow) => sql`
  select cp.user_id, cp.chapter_id, case when cp.price > 0 then 'coins' else 'free' end as how, cp.price
  from chapter_purchases cp
  where ${inSpans(sql.raw('cp.created_at'), w.live)}
  union all
  select cu.user_id, cu.chapter_id, cu.source, 0
  from chapter_unlocks cu
  where cu.created_at >= ${iso(w.from)}::timestamptz and cu.created_at < ${iso(w.to)}::timestamptz
    and (cu.ends_at is not null or ${inSpans(sql.raw('cu.created_at'), w.live)})`;

/**
 * The per-day summaries of the top books and chapters and of the unlocks by book and branch
 * (dashboard_chapter_days, dashboard_unlock_days), and the reads that add the window's raw rows to them.
 */
export function createTopSummary(db: Database): DaySummaryPart & ReturnType<typeof reads> {
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

  return {
    async compute(from: Date, to: Date) {
      const chapterRows = await rows<Record<string, unknown>>(sql`
        select ${dayIndex(sql.raw('u.at'), from)} as day, u.chapter_id, sum(u.price) as coins, count(*) as unlocks
        from (${lasting(from, to)}) u
        group by 1, 2`);
      const unlockRows = await rows<Record<string, unknown>>(sql`
        select ${dayIndex(sql.raw('u.at'), from)} as day, c.book_id, r.branch_id,
               count(*) filter (where u.how = 'coins') as coins_unlocks, sum(u.price) as coins,
               count(*) filter (where u.how = 'free') as free_unlocks,
               count(*) filter (where u.how = 'wait_free') as wait_free_unlocks,
               count(*) filter (where u.how = 'ticket') as ticket_unlocks
        from (${lasting(from, to)}) u join chapters c on c.id = u.chapter_id join users r on r.id = u.user_id
        group by 1, 2, 3`);
      const chapters = chapterRows.map((r) => ({
        day: chinaDate(from, numberOf(r.day)),
        chapterId: numberOf(r.chapter_id),
        coins: numberOf(r.coins),
        unlocks: numberOf(r.unlocks),
      }));
      const unlocks = unlockRows.map((r) => ({
        day: chinaDate(from, numberOf(r.day)),
        bookId: numberOf(r.book_id),
        branchId: numberOf(r.branch_id),
        coinsUnlocks: numberOf(r.coins_unlocks),
        coins: numberOf(r.coins),
        freeUnlocks: numberOf(r.free_unlocks),
        waitFreeUnlocks: numberOf(r.wait_free_unlocks),
        ticketUnlocks: numberOf(r.ticket_unlocks),
      }));
      return {
        async write(tx: Queryable, days: Set<string>) {
          const c = chapters.filter((r) => days.has(r.day));
          for (let i = 0; i < c.length; i += CHUNK) {
            await tx
              .insert(dashboardChapterDays)
              .values(c.slice(i, i + CHUNK))
              .onConflictDoNothing();
          }
          const u = unlocks.filter((r) => days.has(r.day));
          for (let i = 0; i < u.length; i += CHUNK) {
            await tx
              .insert(dashboardUnlockDays)
              .values(u.slice(i, i + CHUNK))
              .onConflictDoNothing();
          }
        },
      };
    },
    ...reads(serialReads(db)),
  };
}

function reads(rows: <T>(query: ReturnType<typeof sql>) => Promise<T[]>) {
  return {
    /**
     * Books by coins spent on their chapters and by readers whose reading was last in the window: the first `limit`
     * of each order (a book may be in both). The coins from the summary and the live days; the readers raw (reading
     * progress keeps only a reader's last reading of a book, which no day can keep).
     */
    async topBooks(w: SummaryWindow, limit: number) {
      const found = await rows<Record<string, unknown>>(sql`
        with spent as (
          select book_id, sum(coins) as coins from (
            select d.book_id, d.coins from dashboard_unlock_days d
            where ${summarisedDay(sql.raw('d.day'), w.summarised)} and d.coins > 0
            union all
            select c.book_id, cp.price from chapter_purchases cp join chapters c on c.id = cp.chapter_id
            where ${inSpans(sql.raw('cp.created_at'), w.live)} and cp.price > 0
          ) s
          group by book_id
        ), reading as (
          select rp.book_id, count(*) as readers
          from reading_progress rp
          where rp.read_at >= ${iso(w.from)}::timestamptz and rp.read_at < ${iso(w.to)}::timestamptz
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

    /** Chapters by coins spent on them and by unlocks (bought, wait-for-free, tickets) over the window. */
    async topChapters(w: SummaryWindow, limit: number) {
      const found = await rows<Record<string, unknown>>(sql`
        with u as (
          select d.chapter_id, d.coins, d.unlocks from dashboard_chapter_days d
          where ${summarisedDay(sql.raw('d.day'), w.summarised)}
          union all
          select r.chapter_id, r.price, 1 from (${unsummarised(w)}) r
        ), agg as (
          select chapter_id, sum(coins) as coins, sum(unlocks) as unlocks from u group by chapter_id
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
     * Per book and the reader's promotion branch, unlocks over the window by how: bought with coins (and the coins),
     * bought at 0 coins, wait-for-free and tickets. The `limit` rows with the most coins, then unlocks.
     */
    async byUnlock(w: SummaryWindow, limit: number) {
      const found = await rows<Record<string, unknown>>(sql`
        with u as (
          select d.book_id, d.branch_id, d.coins_unlocks, d.coins, d.free_unlocks, d.wait_free_unlocks,
                 d.ticket_unlocks
          from dashboard_unlock_days d
          where ${summarisedDay(sql.raw('d.day'), w.summarised)}
          union all
          select c.book_id, r.branch_id, (x.how = 'coins')::int, x.price, (x.how = 'free')::int,
                 (x.how = 'wait_free')::int, (x.how = 'ticket')::int
          from (${unsummarised(w)}) x join chapters c on c.id = x.chapter_id join users r on r.id = x.user_id
        ), agg as (
          select book_id, branch_id, sum(coins_unlocks) as coins_unlocks, sum(coins) as coins,
                 sum(wait_free_unlocks) as wait_free, sum(ticket_unlocks) as tickets, sum(free_unlocks) as free,
                 sum(coins_unlocks + free_unlocks + wait_free_unlocks + ticket_unlocks) as total
          from u
          group by book_id, branch_id
          order by coins desc, total desc, book_id, branch_id
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
