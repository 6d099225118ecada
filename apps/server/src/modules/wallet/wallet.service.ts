import {
  type BuyChapterResult,
  type ConsumptionPage,
  type ConsumptionRecord,
  totalPages,
} from '@yueman/contract';
import type { Queryable } from '../../db/client.ts';
import { chinaTimeParts } from '../../shared/china-time.ts';
import { pageWindow } from '../../shared/pagination.ts';
import { accountBlocked } from '../../shared/signed-in.ts';
import type { BusinessEvent } from '../metrics/metrics.port.ts';
import { chapterNotFound, shortOfCoins } from './wallet.errors.ts';
import type { PaidOrder } from './wallet.port.ts';
import type { RecordRow, WalletRepository } from './wallet.repository.ts';

export interface WalletDeps {
  repo: WalletRepository;
  /** Counts a purchase (the metrics port). */
  count?: (event: BusinessEvent) => void;
  /** A paid monthly card order's days, once per order (card.service giveCardDays). */
  giveCardDays?: (tx: Queryable, a: { orderNo: string; userId: number; days: number }) => Promise<unknown>;
}

/**
 * Buys a chapter for the signed-in reader at the price in the database (docs/api.md section 3). A free
 * chapter, or a VIP reader on a VIP-free book, costs nothing and writes nothing (the ledger is never asked
 * for price 0). Otherwise the ledger debits and claims in one atomic statement: already owned charges
 * nothing, a short balance writes nothing and answers 999 with the price and the balance.
 */
export async function buyChapter(
  { repo, count }: WalletDeps,
  p: { userId: number; isVip: boolean; blocked?: boolean; chapterId: number },
): Promise<BuyChapterResult> {
  const chapter = await repo.chapterForSale(p.chapterId, p.userId);
  if (!chapter) throw chapterNotFound();
  if (chapter.price === 0 || (p.isVip && chapter.vipFree)) {
    return { chapterId: p.chapterId, charged: 0, avaliableAmount: await repo.balanceOf(p.userId) };
  }
  // A reader an operator blocked spends nothing (what they own and what is free stays readable).
  if (p.blocked) throw accountBlocked();
  const { outcome, balance } = await repo.buy({
    userId: p.userId,
    chapterId: p.chapterId,
    price: chapter.price,
  });
  if (outcome === 'short') {
    throw shortOfCoins(chapter.price, balance);
  }
  if (outcome === 'bought') count?.({ event: 'chapter-bought', coins: chapter.price });
  return {
    chapterId: p.chapterId,
    charged: outcome === 'bought' ? chapter.price : 0,
    avaliableAmount: balance,
  };
}

function wording(row: RecordRow): string {
  switch (row.kind) {
    case 'recharge':
      return `充值 ${row.amount}阅币`;
    case 'bonus':
      return `赠送 ${row.amount}阅币`;
    case 'purchase':
      // A bundle's one transfer names its last chapter, for the book's title.
      if (row.id.startsWith('bundle:')) return `打包购买《${row.bookTitle ?? ''}》剩余章节`;
      return `购买《${row.bookTitle ?? ''}》第${row.chapterNumber ?? 0}话`;
    case 'vip':
      return `开通VIP ${row.amount}天`;
    case 'grant':
      return `客服补发 ${row.amount}阅币`;
    case 'revoke':
      return `客服扣回 ${row.amount}阅币`;
  }
}

function record(row: RecordRow): ConsumptionRecord {
  const paid = row.kind === 'recharge' || row.kind === 'vip';
  return {
    id: row.id,
    kind: row.kind,
    coins:
      row.kind === 'purchase' || row.kind === 'revoke' ? -row.amount : row.kind === 'vip' ? 0 : row.amount,
    title: wording(row),
    payAmount: paid ? (row.orderPayAmount ?? 0) : 0,
    createdAt: chinaTimeParts(row.at).text,
  };
}

/** The reader's consumption records: coins in and out, and VIP bought, 20 a page, newest first. */
export async function consumption(
  deps: WalletDeps,
  { userId, page }: { userId: number; page: number },
): Promise<ConsumptionPage> {
  const { list, total } = await consumptionWindow(deps, { userId, ...pageWindow(page) });
  return { list, totalItem: total, totalPage: totalPages(total) };
}

/** Any window of the same records (the console's reader page pages them its own way). */
export async function consumptionWindow(
  { repo }: WalletDeps,
  { userId, limit, offset }: { userId: number; limit: number; offset: number },
): Promise<{ total: number; list: ConsumptionRecord[] }> {
  const [rows, total] = await Promise.all([repo.records(userId, limit, offset), repo.recordCount(userId)]);
  return { list: rows.map(record), total };
}

/**
 * Credits a paid order, inside the transaction that marked it paid (payments' notification): its coins and bonus
 * under deterministic transfer ids (order:{orderNo}:coins, :bonus), its VIP days, or its monthly card days (under
 * the card change id order:{orderNo}). The ids make a second credit of one order move nothing; the order's
 * conditional move to paid makes it run once anyway.
 */
export async function creditPaidOrder(
  { repo, giveCardDays }: WalletDeps,
  { tx, order }: { tx: Queryable; order: PaidOrder },
) {
  const base = { userId: order.userId, orderId: order.id, memo: order.orderNo };
  if (order.firstPayBonus && order.firstPayBonus > 0) {
    // Once per reader whatever the order: the id is the reader's, so a second first payment collides here.
    const offer = {
      transferId: `first-pay:${order.userId}`,
      kind: 'bonus' as const,
      amount: order.firstPayBonus,
    };
    await repo.credit(tx, { ...base, ...offer }, 'system:bonus');
  }
  if (order.purpose === 'vip') {
    await repo.extendVip(tx, order.userId, order.itemCount);
    return;
  }
  if (order.purpose === 'card') {
    if (!giveCardDays) throw new Error('a card order came to a wallet without the monthly card');
    await giveCardDays(tx, { orderNo: order.orderNo, userId: order.userId, days: order.itemCount });
    return;
  }
  const coins = {
    transferId: `order:${order.orderNo}:coins`,
    kind: 'recharge' as const,
    amount: order.itemCount,
  };
  await repo.credit(tx, { ...base, ...coins }, 'system:payments');
  if (order.presentCount > 0) {
    const bonus = {
      transferId: `order:${order.orderNo}:bonus`,
      kind: 'bonus' as const,
      amount: order.presentCount,
    };
    await repo.credit(tx, { ...base, ...bonus }, 'system:bonus');
  }
}

/**
 * A refund's take-back of an order's coins, inside the caller's transaction: what is unspent of `most` (the
 * reader's balance caps it, so it never goes below zero), in one transfer to system:adjustments. The ledger's
 * adjust locks the reader's account first; a repeat under the same transfer id answers what it took then.
 */
export async function takeBackCoins(
  { repo }: WalletDeps,
  { tx, take }: { tx: Queryable; take: { transferId: string; userId: number; most: number; memo: string } },
): Promise<number> {
  if (take.most <= 0) return 0;
  const balance = await repo.balanceOf(take.userId, tx);
  const amount = Math.min(balance, take.most);
  if (amount <= 0) return 0;
  const done = await repo.adjust(tx, {
    transferId: take.transferId,
    userId: take.userId,
    direction: 'take',
    amount,
    memo: take.memo,
  });
  if (done.outcome === 'posted') return amount;
  if (done.outcome === 'duplicate') return done.posted.amount;
  // Spent in between (the balance was read before the lock): take what is left now.
  return done.balance > 0
    ? takeBackCoins({ repo } as WalletDeps, { tx, take: { ...take, most: done.balance } })
    : 0;
}
