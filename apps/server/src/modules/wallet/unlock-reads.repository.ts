import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';
import { discountedPrice, limitedFreeEnd } from './campaigns.repository.ts';
import { readerRules } from './unlocks.repository.ts';
import type { ChapterMark } from './wallet.port.ts';

const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());

/**
 * The unlock ledger's read paths for the catalogue: the marks of a whole chapter list in one query, and a book's
 * wait-for-free as its detail page shows it. Early access and ticket scope are decided as unlocking decides them.
 */
export function createUnlockReadsRepository(db: Database) {
  return {
    async chapterMarks(userId: number | null, bookId: number): Promise<ChapterMark[]> {
      const rows = rowsOf<{
        chapter_id: number;
        price: number;
        price_now: number;
        early: boolean;
        wait_minutes: number | null;
        ready_at: Date | string;
        source: 'bought' | 'wait_free' | 'ticket' | 'limited_free' | null;
        ends_at: Date | string | null;
        usable_any: number;
        usable_presale: number;
      }>(
        await db.execute(sql`
          with t as (
            select count(*)::int as usable_any, (count(*) filter (where kind = 'presale'))::int as usable_presale
            from reading_tickets
            where user_id = ${userId}::int and spent_at is null and expires_at > now()
              and (scope_book_ids is null or ${bookId}::int = any(scope_book_ids))
          )
          select c.id as chapter_id, c.price,
                 ${discountedPrice({ id: sql`c.id`, bookId: sql`c.book_id`, price: sql`c.price` }, userId ?? sql`null`)} as price_now,
                 c.number > b.chapter_count - coalesce(r.early_access_chapters, 0) as early,
                 r.wait_minutes,
                 coalesce(w.ready_at, now()) as ready_at,
                 case when p.chapter_id is not null then 'bought' when u.source is not null then u.source
                      when lf.ends_at is not null then 'limited_free' end as source,
                 case when p.chapter_id is not null then null when u.source is not null then u.ends_at
                      else lf.ends_at end as ends_at,
                 t.usable_any, t.usable_presale
          from chapters c join books b on b.id = c.book_id
          cross join t
          left join ${readerRules(sql`b.id`, userId)}
          left join unlock_wait_clocks w on w.user_id = ${userId}::int and w.book_id = b.id
          left join chapter_purchases p on p.user_id = ${userId}::int and p.chapter_id = c.id
          left join chapter_unlocks u on u.user_id = ${userId}::int and u.chapter_id = c.id
            and (u.ends_at is null or u.ends_at > now())
          cross join lateral (select ${limitedFreeEnd({ id: sql`c.id`, bookId: sql`c.book_id` }, userId)} as ends_at) lf
          where c.book_id = ${bookId}::int and c.publish_at is null
          order by c.number`),
      );
      return rows.map((r) => {
        const locked = r.price > 0 && r.source === null;
        return {
          chapterId: r.chapter_id,
          priceNow: r.price_now,
          unlockSource: r.source,
          unlockEndsAt: ms(r.ends_at),
          earlyAccess: r.early,
          waitFreeReadyAt: locked && !r.early && r.wait_minutes !== null ? ms(r.ready_at) : null,
          ticketable: locked && (r.early ? r.usable_presale > 0 : r.usable_any > 0),
        };
      });
    },

    /** The book's wait-for-free as readers see it, or null when the book has none. */
    async bookWaitFree(bookId: number) {
      const [row] = rowsOf<{ wait_minutes: number | null; rental_hours: number }>(
        await db.execute(
          sql`select wait_minutes, rental_hours from book_unlock_rules
              where book_id = ${bookId}::int and branch_id is null`,
        ),
      );
      return row?.wait_minutes ? { waitMinutes: row.wait_minutes, rentalHours: row.rental_hours } : null;
    },
  };
}

export type UnlockReadsRepository = ReturnType<typeof createUnlockReadsRepository>;
