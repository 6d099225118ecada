import { type Static, Type } from 'typebox';
import { Id, Page } from './envelope.ts';

export const BuyChapterQuery = Type.Object({ chapterId: Id });
/** After a buy: the balance left, so the reader's overlay and account page need no second call. */
export const BuyChapterResult = Type.Object({
  chapterId: Type.Integer(),
  /** Coins charged by this call: 0 when the chapter was already owned or free for this reader. */
  charged: Type.Integer(),
  avaliableAmount: Type.Integer(),
});
export type BuyChapterResult = Static<typeof BuyChapterResult>;
/** The data of code 999 on chapter/buy (msg 阅币不足，请先充值): the price and the balance that falls short. */
export const BuyChapterShort = Type.Object({
  price: Type.Integer(),
  avaliableAmount: Type.Integer(),
});
export type BuyChapterShort = Static<typeof BuyChapterShort>;

export const ConsumptionQuery = Type.Object({ page: Type.Optional(Page) });
/** One line of the consumption records page, from the ledger (and VIP orders, which move no coins). */
export const ConsumptionRecord = Type.Object({
  id: Type.String(),
  /**
   * recharge (coins bought), bonus (coins given with a pack), purchase (a chapter bought), vip (VIP days bought),
   * grant and revoke (coins customer service gave or took back: '客服补发 N阅币', '客服扣回 N阅币')
   */
  kind: Type.Union([
    Type.Literal('recharge'),
    Type.Literal('bonus'),
    Type.Literal('purchase'),
    Type.Literal('vip'),
    Type.Literal('grant'),
    Type.Literal('revoke'),
  ]),
  /** Signed coins: positive in, negative out; 0 for vip. */
  coins: Type.Integer(),
  /** What a reader reads in the list, e.g. '充值 3000阅币', '购买《书名》第3话', '开通VIP 30天'. */
  title: Type.String(),
  /** Cents paid, for recharge and vip; 0 otherwise. */
  payAmount: Type.Integer(),
  /** China time, 'YYYY-MM-DD HH:mm'. */
  createdAt: Type.String(),
});
export type ConsumptionRecord = Static<typeof ConsumptionRecord>;
export const ConsumptionPage = Type.Object({
  list: Type.Array(ConsumptionRecord),
  totalItem: Type.Integer(),
  totalPage: Type.Integer(),
});
export type ConsumptionPage = Static<typeof ConsumptionPage>;

// Unlocks beyond coins: wait-for-free, reading tickets.
export const UnlockBy = Type.Union([
  Type.Literal('coins'),
  Type.Literal('wait_free'),
  Type.Literal('ticket'),
  Type.Literal('bundle'),
]);
export type UnlockBy = Static<typeof UnlockBy>;
export const UnlockChapterBody = Type.Object({ bookId: Id, chapterId: Id, by: UnlockBy });
/** A reader's right to read one chapter: where it comes from and when it ends (epoch ms; null: no end). */
export const Unlock = Type.Object({
  chapterId: Type.Integer(),
  source: Type.Union([
    Type.Literal('free'),
    Type.Literal('bought'),
    Type.Literal('vip'),
    Type.Literal('limited_free'),
    Type.Literal('wait_free'),
    Type.Literal('ticket'),
  ]),
  endsAt: Type.Union([Type.Integer(), Type.Null()]),
});
export type Unlock = Static<typeof Unlock>;
/** What `by: bundle` bought: one unlock per chapter, the coins charged and what they saved. */
export const BundleUnlock = Type.Object({
  list: Type.Array(Unlock),
  price: Type.Integer(),
  saves: Type.Integer(),
});
export type BundleUnlock = Static<typeof BundleUnlock>;
/** The answer of chapter/unlock: the unlock, or for `by: bundle` the list. */
export const UnlockResult = Type.Union([Unlock, BundleUnlock]);
export type UnlockResult = Static<typeof UnlockResult>;
/** What a locked chapter offers (the data of code 999 on chapter/unlock). */
export const UnlockOptions = Type.Object({
  coins: Type.Object({ price: Type.Integer(), balance: Type.Integer() }),
  /** null when the book has no wait-for-free or the chapter is early access; readyAt at or before now: usable. */
  waitFree: Type.Union([Type.Object({ readyAt: Type.Integer(), rentalHours: Type.Integer() }), Type.Null()]),
  tickets: Type.Object({ usable: Type.Integer(), nextExpiresAt: Type.Union([Type.Integer(), Type.Null()]) }),
  /** Buy all remaining priced chapters: the bundle price, how many, and the coins it saves against buying each. */
  bundle: Type.Union([
    Type.Object({ price: Type.Integer(), chapters: Type.Integer(), saves: Type.Integer() }),
    Type.Null(),
  ]),
  earlyAccess: Type.Boolean(),
});
export type UnlockOptions = Static<typeof UnlockOptions>;
/** One reading ticket (阅读券) of the reader. */
export const ReadingTicket = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('read'), Type.Literal('presale')]),
  rentalHours: Type.Union([Type.Integer(), Type.Null()]),
  /** null: any book; else the books it may be spent on. */
  scope: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  expiresAt: Type.Integer(),
  state: Type.Union([Type.Literal('usable'), Type.Literal('spent'), Type.Literal('expired')]),
});
export type ReadingTicket = Static<typeof ReadingTicket>;
export const TicketList = Type.Object({ list: Type.Array(ReadingTicket) });
export type TicketList = Static<typeof TicketList>;

// Daily check-in (签到): one claim per China day per account, a streak, the day's reward from a seven-day cycle.
/** What one day of the check-in cycle pays: coins, reading tickets of a kind, both or nothing (all 0). */
export const CheckinReward = Type.Object({
  coins: Type.Integer(),
  tickets: Type.Integer(),
  ticketKind: Type.Union([Type.Literal('read'), Type.Literal('presale')]),
  /** How many days each ticket stays usable. */
  ticketDays: Type.Integer(),
});
export type CheckinReward = Static<typeof CheckinReward>;
/** One day of the cycle as the streak calendar shows it: checked in, today's (to claim or claimed), or to come. */
export const CheckinDay = Type.Object({
  /** 1 to 7: day 8 of a streak pays day 1's reward again. */
  day: Type.Integer(),
  reward: CheckinReward,
  state: Type.Union([Type.Literal('claimed'), Type.Literal('today'), Type.Literal('later')]),
});
export type CheckinDay = Static<typeof CheckinDay>;
export const CheckinState = Type.Object({
  /** Today in China time, YYYY-MM-DD. */
  today: Type.String(),
  claimedToday: Type.Boolean(),
  /** Days checked in running, today included when claimed (0: the streak has restarted). */
  streak: Type.Integer(),
  /** The current cycle's seven days. */
  days: Type.Array(CheckinDay),
});
export type CheckinState = Static<typeof CheckinState>;
/** The answer of a claim: the state after it, whether this call claimed (false: today was claimed before). */
export const CheckinClaim = Type.Object({
  ...CheckinState.properties,
  claimed: Type.Boolean(),
  /** What today's check-in paid (this call's, or the earlier one's). */
  reward: CheckinReward,
});
export type CheckinClaim = Static<typeof CheckinClaim>;

// The monthly card (月卡): bought as a pack; while it runs, one claim per China day of the console's daily reward.
export const CardState = Type.Object({
  /** Today in China time, YYYY-MM-DD. */
  today: Type.String(),
  /** A card runs today (today is one of its days). */
  active: Type.Boolean(),
  /** The card's China days from today on, today included (0: none runs). */
  daysLeft: Type.Integer(),
  /** The card's last China day, YYYY-MM-DD (null: never bought). */
  lastDay: Type.Union([Type.String(), Type.Null()]),
  claimedToday: Type.Boolean(),
  /** What a claim pays today (the console's daily reward), in check-in's shape. */
  reward: CheckinReward,
});
export type CardState = Static<typeof CardState>;
/** The answer of a claim: the state after it, whether this call claimed (false: today was claimed before). */
export const CardClaim = Type.Object({
  ...CardState.properties,
  claimed: Type.Boolean(),
});
export type CardClaim = Static<typeof CardClaim>;
