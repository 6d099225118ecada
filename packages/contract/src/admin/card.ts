import { type Static, Type } from 'typebox';
import { AdminId, adminRoute, Nullable } from './common.ts';

// The console's monthly card (月卡): the daily reward a claim pays, and the claims per China day. The limits are the
// server's (a Chinese 400 naming the field), as check-in's.

const Whole = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });

/** What each claimed day pays: coins (0 to 1000), tickets (0 to 10) of a kind, usable ticketDays days. */
export const CardReward = Type.Object({
  coins: Whole,
  tickets: Whole,
  ticketKind: Type.Union([Type.Literal('read'), Type.Literal('presale')]),
  ticketDays: Whole,
  /** null: any book; else up to 20 existing book ids the tickets may be spent on. */
  scope: Nullable(Type.Array(AdminId, { maxItems: 100 })),
});
export type CardReward = Static<typeof CardReward>;

/** One China day's claims: how many readers claimed and what was paid. */
export const CardDayCount = Type.Object({
  /** YYYY-MM-DD, China time. */
  day: Type.String(),
  claims: Type.Integer(),
  coins: Type.Integer(),
  tickets: Type.Integer(),
});
export type CardDayCount = Static<typeof CardDayCount>;

export const cardConsoleRoutes = {
  cardReward: adminRoute({
    method: 'GET',
    url: '/api/admin/card/reward',
    summary: '月卡每日奖励：阅币、阅读券（种类、张数、有效天数、适用范围）',
    data: CardReward,
  }),
  setCardReward: adminRoute({
    method: 'POST',
    url: '/api/admin/card/reward',
    summary: '设置月卡每日奖励（只影响此后的领取）；记入操作日志',
    body: CardReward,
    refusals: [400],
    data: CardReward,
  }),
  cardClaims: adminRoute({
    method: 'GET',
    url: '/api/admin/card/claims',
    summary: '月卡每日领取人数（中国时间，最近 N 天，最新在前）与今天生效的月卡数',
    querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 90, default: 14 }) }),
    data: Type.Object({ running: Type.Integer(), list: Type.Array(CardDayCount) }),
  }),
};
