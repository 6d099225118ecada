import type { CheckinReward } from '@yueman/contract';
import type { Queryable } from '../../db/client.ts';
import { readingTickets } from '../../db/schema/index.ts';
import type { createLedgerRepository } from './ledger.repository.ts';

// What a daily claim pays (check-in, the monthly card): coins and/or reading tickets, set by the console in a row of
// the same shape, paid inside the claim's transaction under ids made from the claim's, so a claim and its reward are
// kept together or not at all.

const DAY_MS = 86_400_000;

/**
 * Pays a claim's reward: coins from system:bonus under `{source}:{claimId}`, tickets of source `source` under the
 * grant ids `{source}:{claimId}:{n}`, expiring `ticketDays` after `at`. Throws when any part was paid before (the
 * claim is new, so that is a collision), which rolls the claim back with it.
 */
export async function payDailyReward(
  tx: Queryable,
  ledger: ReturnType<typeof createLedgerRepository>,
  a: {
    source: 'checkin' | 'card';
    /** The memo and the tickets' reason, before the day: 签到奖励, 月卡每日奖励. */
    label: string;
    claimId: number;
    userId: number;
    day: string;
    reward: CheckinReward;
    scope: number[] | null;
    at: Date;
  },
) {
  const memo = `${a.label} ${a.day}`;
  if (a.reward.coins > 0) {
    const posted = await ledger.credit(
      tx,
      {
        transferId: `${a.source}:${a.claimId}`,
        kind: 'bonus',
        userId: a.userId,
        amount: a.reward.coins,
        memo,
      },
      'system:bonus',
    );
    if (!posted)
      throw new Error(`the coins of ${a.source} claim ${a.claimId} collided with an earlier transfer`);
  }
  if (a.reward.tickets > 0) {
    const expiresAt = new Date(a.at.getTime() + a.reward.ticketDays * DAY_MS);
    const made = await tx
      .insert(readingTickets)
      .values(
        Array.from({ length: a.reward.tickets }, (_, i) => ({
          grantId: `${a.source}:${a.claimId}:${i + 1}`,
          userId: a.userId,
          kind: a.reward.ticketKind,
          scopeBookIds: a.scope,
          source: a.source,
          reason: memo,
          expiresAt,
        })),
      )
      .onConflictDoNothing({ target: readingTickets.grantId })
      .returning({ id: readingTickets.id });
    if (made.length !== a.reward.tickets) {
      throw new Error(`the tickets of ${a.source} claim ${a.claimId} collided with earlier ones`);
    }
  }
}
