import { DASHBOARD_WINDOWS, type Dashboard, type DashboardWindow } from '@yueman/contract/admin';
import { chinaDate, chinaDay } from '../../shared/china-time.ts';
import { badRequest } from '../../shared/errors.ts';
import type { DashboardRepository } from './dashboard.console.repository.ts';
import { retention } from './dashboard.retention.service.ts';

export interface DashboardDeps {
  repo: DashboardRepository;
}

const DAY_MS = 24 * 3600 * 1000;
/** The trend's days, and the longest window. */
const TREND_DAYS = 30;
/** How many books and chapters each top list gives. */
const TOP = 10;
/** How many book × branch rows the unlock table gives. */
const UNLOCK_ROWS = 50;

/**
 * The console's first screen: for the China day `date` (today by default), the day and the 7 and 30 days that end
 * with it; the 30 days' trend; and over the window `days` (7 by default) the top books and chapters, the funnel of
 * each promotion branch, the unlocks by how and returning readers. Every figure equals the sum over the tables the
 * service writes; settled days come from the dashboard's summaries.
 */
export async function dashboard(
  deps: DashboardDeps,
  input: { date?: string; days?: DashboardWindow; now?: Date },
): Promise<Dashboard> {
  const date = input.date ?? chinaDate(input.now ?? new Date());
  const day = chinaDay(date);
  if (!day) throw badRequest('参数 date 不是有效的日期', 'date');
  const end = day.to;
  const startOf = (days: number) => new Date(end.getTime() - days * DAY_MS);
  const trendStart = startOf(TREND_DAYS);
  const days = input.days ?? 7;
  const now = input.now ?? new Date();
  // The settled days the reads may take from the summaries: the trend's, and the 30 days after for the funnel.
  const done = await deps.repo.summarise(
    trendStart,
    new Date(end.getTime() + (TREND_DAYS + 1) * DAY_MS),
    now,
  );

  const [daily, payers, books, chapters, funnel, byUnlock, returning] = await Promise.all([
    deps.repo.daily(trendStart, end, now),
    deps.repo.payingReaders(DASHBOARD_WINDOWS.map(startOf), end),
    deps.repo.topBooks(startOf(days), end, TOP, done),
    deps.repo.topChapters(startOf(days), end, TOP, done),
    deps.repo.funnel(startOf(days), end, done),
    deps.repo.byUnlock(startOf(days), end, UNLOCK_ROWS, done),
    retention(deps.repo.retention, { date, days, today: chinaDate(now) }),
  ]);

  const byDay = new Map(daily.map((d) => [d.day, d]));
  const trend = Array.from({ length: TREND_DAYS }, (_, i) => {
    const d = byDay.get(i);
    return {
      date: chinaDate(trendStart, i),
      revenue: d?.revenue ?? 0,
      refundedAmount: d?.refundedAmount ?? 0,
      paidOrders: d?.paidOrders ?? 0,
      newReaders: d?.newReaders ?? 0,
    };
  });

  const summaries = DASHBOARD_WINDOWS.map((w, i) => {
    const inWindow = daily.filter((d) => d.day >= TREND_DAYS - w && d.day < TREND_DAYS);
    const sum = (
      key: 'revenue' | 'paidOrders' | 'firstPayers' | 'refunds' | 'refundedAmount' | 'newReaders',
    ) => inWindow.reduce((s, d) => s + d[key], 0);
    const revenue = sum('revenue');
    const payingReaders = payers[i] ?? 0;
    return {
      days: w,
      from: chinaDate(startOf(w)),
      to: date,
      revenue,
      paidOrders: sum('paidOrders'),
      payingReaders,
      newReaders: sum('newReaders'),
      firstPayers: sum('firstPayers'),
      arppu: payingReaders === 0 ? 0 : Math.round(revenue / payingReaders),
      refunds: sum('refunds'),
      refundedAmount: sum('refundedAmount'),
    };
  });

  return {
    date,
    days,
    summaries,
    trend,
    topBooksByCoins: books.byCoins,
    topBooksByReaders: books.byReaders,
    topChaptersByCoins: chapters.byCoins,
    topChaptersByUnlocks: chapters.byUnlocks,
    funnel,
    byUnlock,
    retention: returning,
  };
}
