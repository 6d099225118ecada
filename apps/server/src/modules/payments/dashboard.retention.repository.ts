import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';

/** The days after a reader's first day that retention reads (0 is the first day); reader_days' partial index. */
export const RETENTION_AGES = [0, 1, 7, 30] as const;
/** The longest day N: a return of the window may have its first day that many days before the window. */
const LONGEST = 30;

/** How many readers of one promotion branch were seen on one China day, that many days after their first. */
export interface ReaderDayCount {
  branchId: number;
  branchName: string;
  /** 'YYYY-MM-DD', China time. */
  day: string;
  age: (typeof RETENTION_AGES)[number];
  readers: number;
}

/** What the dashboard's retention reads: reader_days (written by the users module as readers are seen). */
export function createRetentionRepository(db: Database) {
  return {
    /**
     * Per branch, China day and age: the first days (age 0) of [from − 30 days, to) and the days 1, 7 and 30 of
     * [from, to), how many readers. A day after the first counts only a reader whose first day is recorded (an
     * account older than the record, or made by staff from the console, is in no cohort), so a day-N figure never
     * has a reader its cohort lacks. One range of the partial index reader_days_for_retention, read once: the
     * first days a return needs are in it.
     */
    async readerDays(from: string, to: string): Promise<ReaderDayCount[]> {
      const found = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          with seen as materialized (
            select r.user_id, r.branch_id, r.day, r.age
            from reader_days r
            where r.age in (0, 1, 7, 30) and r.day >= ${from}::date - ${LONGEST}::int and r.day < ${to}::date
          ), firsts as (
            select user_id, day from seen where age = 0
          ), counted as (
            select s.branch_id, s.day, s.age, count(*) as readers
            from seen s left join firsts f on f.user_id = s.user_id and f.day = s.day - s.age
            where s.age = 0 or (s.day >= ${from}::date and f.user_id is not null)
            group by s.branch_id, s.day, s.age
          )
          select c.branch_id, to_char(c.day, 'YYYY-MM-DD') as day, c.age, c.readers,
                 coalesce(b.name, '') as branch_name
          from counted c left join branch_settings b on b.branch_id = c.branch_id`),
      );
      return found.map((r) => ({
        branchId: Number(r.branch_id),
        branchName: String(r.branch_name ?? ''),
        day: String(r.day),
        age: Number(r.age) as ReaderDayCount['age'],
        readers: Number(r.readers),
      }));
    },
  };
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
