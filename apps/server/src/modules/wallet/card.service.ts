import type { CardClaim, CardState } from '@yueman/contract';
import type { Queryable } from '../../db/client.ts';
import { chinaDate } from '../../shared/china-time.ts';
import { userUnknown } from '../../shared/errors.ts';
import type { CardRepository, CardRewardRow } from './card.repository.ts';
import { rewardOf } from './daily-reward.ts';
import { noCardRunning } from './wallet.errors.ts';

// The monthly card (docs/decisions.md, "Monthly card"): a paid card order gives its days as China days from the day
// it is paid (after the days a running card has left); while the card runs the reader claims the console's daily
// reward once per China day, paid in the claim's transaction, so a claim and its reward are kept together or not at
// all. A refund takes back the days of its order that are still to come (claimed rewards stay).

export interface CardDeps {
  repo: CardRepository;
  /** The instant a claim is made at (the server's clock; a test passes its own). */
  now?: () => Date;
}

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' moved by `days` (calendar days; the text is a China date, the arithmetic plain UTC). */
export const dayPlus = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** Days from `from` to `to` (negative when `to` is earlier). */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

function stateOf(
  today: string,
  lastDay: string | null,
  claimedToday: boolean,
  reward: CardRewardRow | undefined,
): CardState {
  const daysLeft = lastDay === null ? 0 : Math.max(0, daysBetween(today, lastDay) + 1);
  return { today, active: daysLeft > 0, daysLeft, lastDay, claimedToday, reward: rewardOf(reward) };
}

/** The reader's card at `at` (China time decides the day). */
export async function cardState(deps: CardDeps, input: { userId: number; at?: Date }): Promise<CardState> {
  const at = input.at ?? deps.now?.() ?? new Date();
  const today = chinaDate(at);
  const [card, reward, claims] = await Promise.all([
    deps.repo.card(input.userId),
    deps.repo.reward(),
    deps.repo.claimsOn(input.userId, [today]),
  ]);
  return stateOf(today, card?.lastDay ?? null, claims.length > 0, reward);
}

/**
 * Claims today's reward of the reader's card. The reader's row lock queues their claims (two tabs, two servers);
 * the unique (user, day) key keeps one claim whatever happens; coins and tickets are paid in the same transaction
 * under ids made from the claim's row. No card running today: 400 and nothing changes. A second claim of the day
 * pays nothing and answers `claimed: false`.
 */
export async function claimCard(deps: CardDeps, input: { userId: number; at?: Date }): Promise<CardClaim> {
  const at = input.at ?? deps.now?.() ?? new Date();
  const today = chinaDate(at);
  const { repo } = deps;
  return repo.transaction(async (tx) => {
    if (!(await repo.lockReader(tx, input.userId))) throw userUnknown();
    const [card, row, before] = [
      await repo.card(input.userId, tx),
      await repo.reward(tx),
      await repo.claimsOn(input.userId, [today], tx),
    ];
    const lastDay = card?.lastDay ?? null;
    if (before.length > 0) return { ...stateOf(today, lastDay, true, row), claimed: false };
    if (!stateOf(today, lastDay, false, row).active) throw noCardRunning();
    const reward = rewardOf(row);
    const made = await repo.insertClaim(tx, {
      userId: input.userId,
      day: today,
      coins: reward.coins,
      tickets: reward.tickets,
    });
    // The reader's lock makes a second claim of the day impossible here; a collision must roll the reward back.
    if (!made) throw new Error('a monthly card claim collided with an earlier one');
    await repo.payReward(tx, {
      claimId: made.id,
      userId: input.userId,
      day: today,
      reward,
      scope: row?.ticketScope ?? null,
      at,
    });
    return { ...stateOf(today, lastDay, true, row), claimed: true };
  });
}

/**
 * A paid card order's days, once under `order:{orderNo}`, inside the transaction that marked it paid: a card that
 * still runs today is extended by `days` past its last day; otherwise the card runs from today for `days` days.
 */
export async function giveCardDays(
  { repo }: Pick<CardDeps, 'repo'>,
  tx: Queryable,
  a: { orderNo: string; userId: number; days: number; at: Date },
) {
  const today = chinaDate(a.at);
  if (!(await repo.lockReader(tx, a.userId))) return false;
  const card = await repo.card(a.userId, tx);
  const running = card !== undefined && card.lastDay >= today;
  const lastDay = running ? dayPlus(card.lastDay, a.days) : dayPlus(today, a.days - 1);
  const fresh = await repo.recordChange(tx, {
    id: `order:${a.orderNo}`,
    userId: a.userId,
    days: a.days,
    lastDayBefore: card?.lastDay ?? null,
    lastDayAfter: lastDay,
  });
  if (fresh) await repo.setLastDay(tx, a.userId, lastDay);
  return fresh;
}

/**
 * A refunded card order's days that are still to come, taken back once under `refund:{orderNo}`. The order's own
 * days are the span its purchase added (ending at the last day it set); of those, the ones from today on (from
 * tomorrow when today is claimed) go, and the card's last day moves back by as many. Claimed days and their rewards
 * stay. False when this refund was done before.
 */
export async function takeBackCardDays(
  { repo }: Pick<CardDeps, 'repo'>,
  tx: Queryable,
  a: { orderNo: string; userId: number; days: number; at: Date },
) {
  const today = chinaDate(a.at);
  if (!(await repo.lockReader(tx, a.userId))) return false;
  const [card, given, claimed] = [
    await repo.card(a.userId, tx),
    await repo.change(`order:${a.orderNo}`, tx),
    await repo.claimsOn(a.userId, [today], tx),
  ];
  // The first day not yet claimed that may still be: today, or tomorrow when today is claimed.
  const open = claimed.length > 0 ? dayPlus(today, 1) : today;
  const givenEnd = given?.lastDayAfter ?? card?.lastDay ?? open;
  const ahead = Math.min(a.days, Math.max(0, daysBetween(open, givenEnd) + 1));
  const before = card?.lastDay ?? null;
  // Never before the day before `open`: the days up to it are passed or claimed.
  const left = before === null ? 0 : Math.max(0, daysBetween(open, before) + 1);
  const taken = Math.min(ahead, left);
  const after = before === null ? dayPlus(open, -1) : dayPlus(before, -taken);
  const fresh = await repo.recordChange(tx, {
    id: `refund:${a.orderNo}`,
    userId: a.userId,
    days: -taken,
    lastDayBefore: before,
    lastDayAfter: after,
  });
  if (fresh && before !== null && taken > 0) await repo.setLastDay(tx, a.userId, after);
  return fresh;
}
