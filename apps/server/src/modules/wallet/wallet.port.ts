import type { ConsumptionRecord, UnlockOptions } from '@yueman/contract';
import type { Queryable } from '../../db/client.ts';

/** A pay order the payments module has just marked paid, as far as the wallet credits it. */
export interface PaidOrder {
  id: number;
  orderNo: string;
  userId: number;
  purpose: string;
  /** Coins, or VIP days, or monthly card days. */
  itemCount: number;
  /** Bonus coins of a coin pack. */
  presentCount: number;
  /** The first-recharge offer's extra coins, when this is the reader's first paid order (else 0 or absent). */
  firstPayBonus?: number;
}

/** What the chapter list marks on one chapter for one reader (docs/api.md, chapter/list). */
export interface ChapterMark {
  chapterId: number;
  /** The coins the chapter costs this reader now: its price less a live discount campaign for them. */
  priceNow: number;
  /** The live right to read it beyond free: bought, a stored unlock not ended, or a live limited-free campaign. */
  unlockSource: 'bought' | 'wait_free' | 'ticket' | 'limited_free' | null;
  unlockEndsAt: number | null;
  earlyAccess: boolean;
  /** When wait-for-free may open it (epoch ms), for a locked priced chapter of a wait-free book; else null. */
  waitFreeReadyAt: number | null;
  /** A usable ticket of the reader may open it (locked, priced, in scope, presale kind for early access). */
  ticketable: boolean;
}

/** What other modules may ask of the wallet: coins, chapters owned, and crediting a paid order. */
export interface WalletPort {
  balanceOf(userId: number): Promise<number>;
  /** Which of these chapters the user has bought. */
  ownedChapters(userId: number, chapterIds: number[]): Promise<Set<number>>;
  /** Coins and bonus, VIP days or card days, of an order just marked paid, inside the transaction `tx` that did so. */
  creditPaidOrder(tx: Queryable, order: PaidOrder): Promise<void>;
  /**
   * Takes back, inside `tx`, at most `most` coins the reader still holds (never below zero) in one transfer to
   * system:adjustments under `transferId` (a retry takes nothing more). Answers how many were taken.
   */
  takeBackCoins(
    tx: Queryable,
    take: { transferId: string; userId: number; most: number; memo: string },
  ): Promise<number>;
  /**
   * A refunded VIP order's days, taken back once under `id` (vip_adjustments): vip_end moves back by `days`, never
   * to before now. False when this id was done before.
   */
  shortenVipOnce(tx: Queryable, a: { id: string; userId: number; days: number }): Promise<boolean>;
  /**
   * A refunded monthly card order's days still to come, taken back once (card_days `refund:{orderNo}`): claimed
   * days stay. False when done before.
   */
  shortenCardOnce(tx: Queryable, a: { orderNo: string; userId: number; days: number }): Promise<boolean>;
  /** The reader's consumption records as they read them, any window (the console's reader page). */
  records(
    userId: number,
    limit: number,
    offset: number,
  ): Promise<{ total: number; list: ConsumptionRecord[] }>;
  // The unlock ledger's read paths, for reading a chapter and its list.
  /** The reader's live stored unlock or purchase of the chapter, or undefined. */
  heldUnlock(userId: number, chapterId: number): Promise<{ source: string; endsAt: Date | null } | undefined>;
  /** What a locked chapter offers the reader now (unlockOptions), or undefined for no such chapter. */
  unlockOptions(userId: number, chapterId: number): Promise<UnlockOptions | undefined>;
  /** Each published chapter's marks for this reader (null: nobody signed in), in one query. */
  chapterMarks(userId: number | null, bookId: number): Promise<ChapterMark[]>;
  /** The book's wait-for-free, or null when it has none. */
  bookWaitFree(bookId: number): Promise<{ waitMinutes: number; rentalHours: number } | null>;
}
