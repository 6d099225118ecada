import { type Static, Type } from 'typebox';
import { AdminId, adminRoute, Nullable } from './common.ts';

// The console's daily check-in (签到): the seven days' rewards, and the claims per China day. The limits are the
// server's (a Chinese 400 naming the field); the schema keeps the numbers whole and small enough for the database.

const Whole = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });

/** One day of the seven-day cycle: its coins (0 to 1000), tickets (0 to 10) of a kind, usable ticketDays days. */
export const CheckinRewardDay = Type.Object({
  day: Type.Integer({ minimum: 1, maximum: 7 }),
  coins: Whole,
  tickets: Whole,
  ticketKind: Type.Union([Type.Literal('read'), Type.Literal('presale')]),
  ticketDays: Whole,
  /** null: any book; else up to 20 existing book ids the tickets may be spent on. */
  scope: Nullable(Type.Array(AdminId, { maxItems: 100 })),
});
export type CheckinRewardDay = Static<typeof CheckinRewardDay>;

export const CheckinRewards = Type.Object({ days: Type.Array(CheckinRewardDay) });
export type CheckinRewards = Static<typeof CheckinRewards>;

/** One China day's check-ins: how many readers claimed, how many of them on a streak's first day, what was paid. */
export const CheckinDayCount = Type.Object({
  /** YYYY-MM-DD, China time. */
  day: Type.String(),
  claims: Type.Integer(),
  firstDays: Type.Integer(),
  coins: Type.Integer(),
  tickets: Type.Integer(),
});
export type CheckinDayCount = Static<typeof CheckinDayCount>;

export const checkinConsoleRoutes = {
  checkinRewards: adminRoute({
    method: 'GET',
    url: '/api/admin/checkin/rewards',
    summary: '每日签到的奖励：七天一个周期，每天的阅币、阅读券（种类、张数、有效天数、适用范围）',
    data: CheckinRewards,
  }),
  setCheckinRewards: adminRoute({
    method: 'POST',
    url: '/api/admin/checkin/rewards',
    summary: '设置每日签到的奖励（七天整体替换）；记入操作日志',
    body: Type.Object({ days: Type.Array(CheckinRewardDay, { minItems: 7, maxItems: 7 }) }),
    data: CheckinRewards,
  }),
  checkinClaims: adminRoute({
    method: 'GET',
    url: '/api/admin/checkin/claims',
    summary: '每日签到人数（中国时间，最近 N 天，最新在前）',
    querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 90, default: 14 }) }),
    data: Type.Object({ list: Type.Array(CheckinDayCount) }),
  }),
};
