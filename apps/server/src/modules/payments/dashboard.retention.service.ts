import type {
  DashboardRetention,
  DashboardRetentionRow,
  DashboardRetentionTotal,
  RetentionDay,
} from '@yueman/contract/admin';
import type { ReaderDayCount, RetentionRepository } from './dashboard.retention.repository.ts';

/** The days after the first day whose return the dashboard shows. */
const RETURN_DAYS = [1, 7, 30] as const;

const DAY_MS = 86_400_000;
/** A calendar date 'YYYY-MM-DD' moved by `n` days (plain date arithmetic: no clock, no zone). */
const shift = (date: string, n: number) => new Date(Date.parse(date) + n * DAY_MS).toISOString().slice(0, 10);
/** Days from date a to date b. */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY_MS);

const emptyFigures = (): DashboardRetentionTotal => ({
  newReaders: 0,
  day1: { cohort: 0, returned: 0 },
  day7: { cohort: 0, returned: 0 },
  day30: { cohort: 0, returned: 0 },
});

/**
 * Returning readers over the window of `days` China days ending with `date`, counted up to today (a day to come has
 * no readers yet). For N of 1, 7 and 30: the cohort is the readers whose day N (N days after their first day, the
 * day their account was made) is a day of the window up to today; returned, those of them seen on exactly that
 * day. newReaders is the readers whose first day is in the window. Per promotion branch and in total.
 */
export async function retention(
  repo: RetentionRepository,
  input: { date: string; days: number; today: string },
): Promise<DashboardRetention> {
  const start = shift(input.date, 1 - input.days);
  // [start, end): the window's days that have come.
  const end = [shift(input.date, 1), shift(input.today, 1)].sort()[0] ?? start;
  const length = daysBetween(start, end);
  const counts = length <= 0 ? [] : await repo.readerDays(start, end);

  const byBranch = new Map<number, DashboardRetentionRow>();
  const total = emptyFigures();
  const add = (c: ReaderDayCount, into: DashboardRetentionTotal) => {
    const inWindow = c.day >= start && c.day < end;
    if (c.age === 0) {
      if (inWindow) into.newReaders += c.readers;
      // A first day is in day N's cohort when its day N is a day of the window that has come.
      for (const n of RETURN_DAYS) {
        const dayN = daysBetween(start, c.day) + n;
        if (dayN >= 0 && dayN < length) dayOf(into, n).cohort += c.readers;
      }
    } else if (inWindow) {
      dayOf(into, c.age).returned += c.readers;
    }
  };
  for (const c of counts) {
    let row = byBranch.get(c.branchId);
    if (!row) {
      row = { branchId: c.branchId, branchName: c.branchName, ...emptyFigures() };
      byBranch.set(c.branchId, row);
    }
    add(c, row);
    add(c, total);
  }
  const branches = [...byBranch.values()]
    .filter((r) => r.newReaders + r.day1.cohort + r.day7.cohort + r.day30.cohort > 0)
    .sort((a, b) => b.newReaders - a.newReaders || a.branchId - b.branchId);
  return { branches, total };
}

function dayOf(f: DashboardRetentionTotal, n: number): RetentionDay {
  return n === 1 ? f.day1 : n === 7 ? f.day7 : f.day30;
}
