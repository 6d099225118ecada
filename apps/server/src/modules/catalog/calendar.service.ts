import type { CalendarBook, ReleaseCalendar } from '@yueman/contract';
import { chinaDate, chinaDay } from '../../shared/china-time.ts';
import type { CatalogRepository } from './catalog.repository.ts';

/** How many scheduled chapters and weekly books one calendar reads at most. */
const CALENDAR_ROWS = 500;
const DAYS = 7;

/** ISO weekday (1 Monday … 7 Sunday) of a 'YYYY-MM-DD' day. */
export const isoWeekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

/**
 * The release calendar (更新日历): today and the six days after it, China time, each with the books releasing that
 * day: first those with chapters the console scheduled in it (by time), then those whose weekday schedule names it
 * (most read first). The same for every reader; the web app puts the reader's followed books first.
 */
export async function releaseCalendar(
  { repo }: { repo: Pick<CatalogRepository, 'calendar'> },
  now = new Date(),
): Promise<ReleaseCalendar> {
  const dates = Array.from({ length: DAYS }, (_, i) => chinaDate(now, i));
  const from = chinaDay(dates[0] as string)?.from ?? now;
  const to = chinaDay(dates[DAYS - 1] as string)?.to ?? now;
  const { scheduled, weekly, books } = await repo.calendar(from, to, CALENDAR_ROWS);
  return dates.map((date) => {
    const weekday = isoWeekday(date);
    const day = new Map<number, CalendarBook>();
    for (const c of scheduled) {
      const book = books.get(c.bookId);
      if (!book || !c.publishAt || chinaDate(c.publishAt) !== date) continue;
      const entry = day.get(c.bookId) ?? { book, chapters: [] };
      entry.chapters.push({ number: c.number, title: c.title, publishAt: c.publishAt.getTime() });
      day.set(c.bookId, entry);
    }
    for (const w of weekly) {
      const book = books.get(w.bookId);
      if (book && w.releaseDays.includes(weekday) && !day.has(w.bookId))
        day.set(w.bookId, { book, chapters: [] });
    }
    return { date, weekday, books: [...day.values()] };
  });
}
