import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { searchTerms } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

/** A keyword's searches in a window, and how many of them found nothing. */
export interface TermCount {
  keyword: string;
  searches: number;
  misses: number;
}

/** Days of searches kept: the console shows up to 30; the rest is dropped as the counts are added. */
const KEPT_DAYS = 90;

export function createSearchTermsRepository(db: Database) {
  return {
    /** Adds one server's counts of a China-time day (`YYYY-MM-DD`), and drops days past KEPT_DAYS. */
    async add(day: string, counts: TermCount[]) {
      if (counts.length === 0) return;
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into ${searchTerms} as t (day, keyword, searches, misses)
          select ${day}::date, v.keyword, v.searches, v.misses
          from json_to_recordset(${JSON.stringify(counts)}::json) as v (keyword text, searches int, misses int)
          order by 2
          on conflict (day, keyword) do update
            set searches = t.searches + excluded.searches, misses = t.misses + excluded.misses`);
        await tx.execute(sql`delete from ${searchTerms} where day < ${day}::date - ${KEPT_DAYS}::int`);
      });
    },

    /**
     * The most searched keywords since `since` (a China-time day), and those whose searches found nothing, most
     * missed first (a keyword that found nothing once but finds books now still shows its misses).
     */
    async top(since: string, limit: number) {
      const ranked = (order: ReturnType<typeof sql>, where: ReturnType<typeof sql>) =>
        db.execute(sql`
          select keyword, sum(searches)::int as searches, sum(misses)::int as misses from ${searchTerms}
          where day >= ${since}::date group by keyword having ${where} order by ${order}, keyword limit ${limit}`);
      const [searched, missed] = await Promise.all([
        ranked(sql`sum(searches) desc`, sql`true`),
        ranked(sql`sum(misses) desc`, sql`sum(misses) > 0`),
      ]);
      return { searched: rowsOf<TermCount>(searched), missed: rowsOf<TermCount>(missed) };
    },
  };
}

export type SearchTermsRepository = ReturnType<typeof createSearchTermsRepository>;
