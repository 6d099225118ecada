import type { CheckinClaim, CheckinDay, CheckinState } from '@yueman/contract';
import { chinaDate } from '../../shared/china-time.ts';
import { userUnknown } from '../../shared/errors.ts';
import type { CheckinRepository, CheckinRewardRow } from './checkin.repository.ts';
import { rewardOf } from './daily-reward.ts';

// Daily check-in (docs/decisions.md, "Daily check-in"): one claim per reader per China day, counted on the account;
// a streak that a missed China day restarts; the reward of the streak's day in a seven-day cycle (day 8 pays day 1's
// again), paid in the claim's transaction, so a claim and its reward are kept together or not at all.

export interface CheckinDeps {
  repo: CheckinRepository;
  /** The instant a claim is made at (the server's clock; a test passes its own). */
  now?: () => Date;
}

export const CHECKIN_CYCLE = 7;

/** The cycle's day (1 to 7) of a streak's nth day. */
export const cycleDayOf = (streak: number) => ((streak - 1) % CHECKIN_CYCLE) + 1;

function stateOf(
  today: string,
  rewards: CheckinRewardRow[],
  claims: { day: string; streak: number }[],
): CheckinState {
  const todays = claims.find((c) => c.day === today);
  const yesterdays = claims.find((c) => c.day !== today);
  const streak = todays?.streak ?? yesterdays?.streak ?? 0;
  // The cycle's days already claimed in this cycle, and which day is today's.
  const done = todays ? cycleDayOf(streak) : streak % CHECKIN_CYCLE;
  const todayDay = todays ? done : done + 1;
  const days: CheckinDay[] = Array.from({ length: CHECKIN_CYCLE }, (_, i) => {
    const day = i + 1;
    const state = day === todayDay ? 'today' : day <= done ? 'claimed' : 'later';
    return { day, reward: rewardOf(rewards.find((r) => r.day === day)), state };
  });
  return { today, claimedToday: todays !== undefined, streak, days };
}

/** The reader's check-in as the streak calendar shows it, at `at` (China time decides the day). */
export async function checkinState(
  deps: CheckinDeps,
  input: { userId: number; at?: Date },
): Promise<CheckinState> {
  const at = input.at ?? deps.now?.() ?? new Date();
  const today = chinaDate(at);
  const [rewards, claims] = await Promise.all([
    deps.repo.rewards(),
    deps.repo.claimsOn(input.userId, [today, chinaDate(at, -1)]),
  ]);
  return stateOf(today, rewards, claims);
}

/**
 * Checks the reader in for the China day of `at`. The reader's row lock queues their claims (two tabs, two servers);
 * the unique (user, day) key keeps one claim whatever happens; coins and tickets are paid in the same transaction
 * under ids made from the claim's row. A second claim of the day pays nothing and answers `claimed: false`
 * with what the first one paid.
 */
export async function claimCheckin(
  deps: CheckinDeps,
  input: { userId: number; at?: Date },
): Promise<CheckinClaim> {
  const at = input.at ?? deps.now?.() ?? new Date();
  const today = chinaDate(at);
  const yesterday = chinaDate(at, -1);
  const { repo } = deps;
  return repo.transaction(async (tx) => {
    if (!(await repo.lockReader(tx, input.userId))) throw userUnknown();
    const rewards = await repo.rewards(tx);
    const before = await repo.claimsOn(input.userId, [today, yesterday], tx);
    const earlier = before.find((c) => c.day === today);
    if (earlier)
      return {
        ...stateOf(today, rewards, before),
        claimed: false,
        reward: {
          ...rewardOf(rewards.find((r) => r.day === earlier.cycleDay)),
          coins: earlier.coins,
          tickets: earlier.tickets,
        },
      };
    const streak = (before.find((c) => c.day === yesterday)?.streak ?? 0) + 1;
    const cycleDay = cycleDayOf(streak);
    const row = rewards.find((r) => r.day === cycleDay);
    const reward = rewardOf(row);
    const made = await repo.insertClaim(tx, {
      userId: input.userId,
      day: today,
      streak,
      cycleDay,
      coins: reward.coins,
      tickets: reward.tickets,
    });
    // The reader's lock makes a second claim of the day impossible here; a collision must roll the reward back.
    if (!made) throw new Error('a check-in collided with an earlier one');
    await repo.payReward(tx, {
      claimId: made.id,
      userId: input.userId,
      day: today,
      reward,
      scope: row?.ticketScope ?? null,
      at,
    });
    return { ...stateOf(today, rewards, [...before, made]), claimed: true, reward };
  });
}
