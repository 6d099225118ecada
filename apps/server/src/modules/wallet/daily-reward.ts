import type { CheckinReward } from '@yueman/contract';

// What a daily claim pays (check-in, the monthly card): coins and/or reading tickets, set by the console in a row of
// the same shape; daily-reward.repository.ts pays it.

/** The reward row's columns both features keep. */
interface RewardRow {
  coins: number;
  tickets: number;
  ticketKind: string;
  ticketDays: number;
}

const NOTHING: CheckinReward = { coins: 0, tickets: 0, ticketKind: 'read', ticketDays: 7 };

/** The reward a row pays (no row: nothing). */
export const rewardOf = (row: RewardRow | undefined): CheckinReward =>
  row
    ? {
        coins: row.coins,
        tickets: row.tickets,
        ticketKind: row.ticketKind as 'read' | 'presale',
        ticketDays: row.ticketDays,
      }
    : NOTHING;
