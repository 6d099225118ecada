import { type Static, Type } from 'typebox';
import { adminRoute } from './common.ts';
import { DashboardRetention } from './dashboard-retention.ts';

const ChinaDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** The windows the dashboard sums: the day itself, and the 7 and 30 China days that end with it. */
export const DASHBOARD_WINDOWS = [1, 7, 30] as const;
export const DashboardWindow = Type.Union([Type.Literal(1), Type.Literal(7), Type.Literal(30)]);
export type DashboardWindow = Static<typeof DashboardWindow>;

/** The figures of one window. Money in cents (yuan × 100); coins are 阅币. */
export const DashboardSummary = Type.Object({
  days: DashboardWindow,
  /** China dates of the window, both included. */
  from: Type.String(),
  to: Type.String(),
  /** Cents paid by orders paid in the window (before refunds). */
  revenue: Type.Integer(),
  paidOrders: Type.Integer(),
  /** Readers with at least one order paid in the window. */
  payingReaders: Type.Integer(),
  /** Accounts registered in the window. */
  newReaders: Type.Integer(),
  /** Readers whose first paid order ever was paid in the window. */
  firstPayers: Type.Integer(),
  /** revenue / payingReaders, in cents, rounded; 0 without payers. */
  arppu: Type.Integer(),
  /** Refunds made in the window that succeeded: how many and their cents. */
  refunds: Type.Integer(),
  refundedAmount: Type.Integer(),
});
export type DashboardSummary = Static<typeof DashboardSummary>;

/** One China day of the trend. */
export const DashboardDay = Type.Object({
  date: Type.String(),
  revenue: Type.Integer(),
  refundedAmount: Type.Integer(),
  paidOrders: Type.Integer(),
  newReaders: Type.Integer(),
});
export type DashboardDay = Static<typeof DashboardDay>;

export const DashboardBook = Type.Object({
  bookId: Type.Integer(),
  title: Type.String(),
  /** Coins spent on the book's chapters in the window. */
  coins: Type.Integer(),
  /** Readers whose reading of the book was last at a time in the window. */
  readers: Type.Integer(),
});
export type DashboardBook = Static<typeof DashboardBook>;

export const DashboardChapter = Type.Object({
  chapterId: Type.Integer(),
  bookId: Type.Integer(),
  bookTitle: Type.String(),
  number: Type.Integer(),
  title: Type.String(),
  /** Coins spent on the chapter in the window. */
  coins: Type.Integer(),
  /** Unlocks of the chapter in the window: bought (coins or free for the reader), wait-for-free and tickets. */
  unlocks: Type.Integer(),
});
export type DashboardChapter = Static<typeof DashboardChapter>;

/** One promotion branch's cohort: the first visits in the window and what they did within 30 days of them. */
export const DashboardFunnelRow = Type.Object({
  branchId: Type.Integer(),
  branchName: Type.String(),
  firstVisits: Type.Integer(),
  /** Of them, visitors with an account made by 30 days after the first visit. */
  accounts: Type.Integer(),
  /** Of them, visitors whose account paid an order within 30 days of the first visit. */
  payers: Type.Integer(),
  /** Cents those orders paid. */
  revenue: Type.Integer(),
});
export type DashboardFunnelRow = Static<typeof DashboardFunnelRow>;

/** Reads and coins of one book and branch by how the chapters were unlocked, in the window. */
export const DashboardUnlockRow = Type.Object({
  bookId: Type.Integer(),
  bookTitle: Type.String(),
  branchId: Type.Integer(),
  branchName: Type.String(),
  coinsUnlocks: Type.Integer(),
  coins: Type.Integer(),
  waitFreeUnlocks: Type.Integer(),
  ticketUnlocks: Type.Integer(),
  /** Chapters bought at 0 coins (free for the reader then: a limited-time free chapter or a first-free one). */
  freeUnlocks: Type.Integer(),
});
export type DashboardUnlockRow = Static<typeof DashboardUnlockRow>;

export const Dashboard = Type.Object({
  /** The China date the dashboard ends with (today unless asked). */
  date: Type.String(),
  /** The window of the top lists and the funnel. */
  days: DashboardWindow,
  summaries: Type.Array(DashboardSummary),
  /** The 30 China days ending with date, oldest first. */
  trend: Type.Array(DashboardDay),
  topBooksByCoins: Type.Array(DashboardBook),
  topBooksByReaders: Type.Array(DashboardBook),
  topChaptersByCoins: Type.Array(DashboardChapter),
  topChaptersByUnlocks: Type.Array(DashboardChapter),
  funnel: Type.Array(DashboardFunnelRow),
  byUnlock: Type.Array(DashboardUnlockRow),
  /** Returning readers over the window: day-1, day-7 and day-30 retention per promotion branch and in total. */
  retention: DashboardRetention,
});
export type Dashboard = Static<typeof Dashboard>;

export const dashboardRoutes = {
  dashboard: adminRoute({
    method: 'GET',
    url: '/api/admin/dashboard',
    summary:
      '数据概览：当天、最近 7 / 30 天（北京时间）的营收、订单、付费读者、新读者、首充、ARPPU、退款；30 天趋势；热门作品与章节；各推广渠道的转化漏斗；按解锁方式；各推广渠道的次日 / 7 日 / 30 日留存',
    querystring: Type.Object({
      /** The China date to end with; today when not given. */
      date: Type.Optional(ChinaDate),
      /** The window of the top lists, the funnel, the unlock table and retention: 1, 7 (default) or 30 days. */
      days: Type.Optional(DashboardWindow),
    }),
    data: Dashboard,
  }),
};
