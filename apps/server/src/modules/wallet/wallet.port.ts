import type { ConsumptionRecord } from '@yueman/contract';
import type { Queryable } from '../../db/client.ts';

/** A pay order the payments module has just marked paid, as far as the wallet credits it. */
export interface PaidOrder {
  id: number;
  orderNo: string;
  userId: number;
  purpose: string;
  /** Coins, or VIP days. */
  itemCount: number;
  /** Bonus coins of a coin pack. */
  presentCount: number;
  /** The first-recharge offer's extra coins, when this is the reader's first paid order (else 0 or absent). */
  firstPayBonus?: number;
}

/** What other modules may ask of the wallet: coins, chapters owned, and crediting a paid order. */
export interface WalletPort {
  balanceOf(userId: number): Promise<number>;
  /** Which of these chapters the user has bought. */
  ownedChapters(userId: number, chapterIds: number[]): Promise<Set<number>>;
  /** Coins and bonus, or VIP days, of an order just marked paid, inside the transaction `tx` that did so. */
  creditPaidOrder(tx: Queryable, order: PaidOrder): Promise<void>;
  /** The reader's consumption records as they read them, any window (the console's reader page). */
  records(
    userId: number,
    limit: number,
    offset: number,
  ): Promise<{ total: number; list: ConsumptionRecord[] }>;
}
