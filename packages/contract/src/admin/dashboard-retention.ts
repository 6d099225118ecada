import { type Static, Type } from 'typebox';

/**
 * Day-N retention (classic: seen on exactly that day) of the readers whose day N, the N-th China day after their
 * first (the day the account was made), is a day of the window up to today.
 */
export const RetentionDay = Type.Object({
  /** Readers whose day N fell in the window (0: none yet, shown as "—"). */
  cohort: Type.Integer(),
  /** Of them, readers seen on their day N. */
  returned: Type.Integer(),
});
export type RetentionDay = Static<typeof RetentionDay>;

const figures = {
  /** Readers whose first day is a day of the window: the cohort the window starts. */
  newReaders: Type.Integer(),
  day1: RetentionDay,
  day7: RetentionDay,
  day30: RetentionDay,
};

/** The window's retention figures of one promotion branch (the reader's account's branch). */
export const DashboardRetentionRow = Type.Object({
  branchId: Type.Integer(),
  branchName: Type.String(),
  ...figures,
});
export type DashboardRetentionRow = Static<typeof DashboardRetentionRow>;

/** The same figures over every branch. */
export const DashboardRetentionTotal = Type.Object(figures);
export type DashboardRetentionTotal = Static<typeof DashboardRetentionTotal>;

export const DashboardRetention = Type.Object({
  /** Per promotion branch, the most new readers first. */
  branches: Type.Array(DashboardRetentionRow),
  total: DashboardRetentionTotal,
});
export type DashboardRetention = Static<typeof DashboardRetention>;
