import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';

/** The days after a reader's first day that retention reads (0 is the first day); reader_days' partial index. */
export const RETENTION_AGES = [0, 1, 7, 30] as const;

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
     * Per branch, China day of [from, to) and age 0, 1, 7 or 30: the readers seen that day. A day after the first
     * counts only a reader whose first day is recorded (an account older than the record, or made by staff from the
     * console, is in no cohort), so a day-N figure never has a reader its cohort lacks. Reads only
     * reader_days_for_retention and, for the few returning rows, the primary key.
     */
    async readerDays(from: string, to: string): Promise<ReaderDayCount[]> {
      const found = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          with counted as (
            select r.branch_id, r.day, r.age, count(*) as readers
            from reader_days r
            where r.age in (0, 1, 7, 30) and r.day >= ${from}::date and r.day < ${to}::date
              and (r.age = 0 or exists (
                select 1 from reader_days f where f.user_id = r.user_id and f.day = r.day - r.age and f.age = 0
              ))
            group by r.branch_id, r.day, r.age
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
