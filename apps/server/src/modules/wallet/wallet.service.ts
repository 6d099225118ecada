import type { BuyChapterResult, ConsumptionPage, ConsumptionRecord } from '@yueman/contract';
import { chinaTimeParts } from '../../shared/china-time.ts';
import { notFound, paymentNeeded } from '../../shared/errors.ts';
import { pageWindow, totalPages } from '../../shared/pagination.ts';
import type { RecordRow, WalletRepository } from './wallet.repository.ts';

export interface WalletDeps {
  repo: WalletRepository;
}

export const SHORT_OF_COINS = '阅币不足，请先充值';

/**
 * Buys a chapter for the signed-in reader at the price in the database (docs/contract.md section 3). A free
 * chapter, or a VIP reader on a VIP-free book, costs nothing and writes nothing (the ledger is never asked
 * for price 0). Otherwise the ledger debits and claims in one atomic statement: already owned charges
 * nothing, a short balance writes nothing and answers 999 with the price and the balance.
 */
export async function buyChapter(
  { repo }: WalletDeps,
  p: { userId: number; isVip: boolean; chapterId: number },
): Promise<BuyChapterResult> {
  const chapter = await repo.chapterForSale(p.chapterId);
  if (!chapter) throw notFound('章节不存在');
  if (chapter.price === 0 || (p.isVip && chapter.vipFree)) {
    return { chapterId: p.chapterId, charged: 0, avaliableAmount: await repo.balanceOf(p.userId) };
  }
  const { outcome, balance } = await repo.buy({
    userId: p.userId,
    chapterId: p.chapterId,
    price: chapter.price,
  });
  if (outcome === 'short') {
    throw paymentNeeded(SHORT_OF_COINS, { price: chapter.price, avaliableAmount: balance });
  }
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
      return `购买《${row.bookTitle ?? ''}》第${row.chapterNumber ?? 0}话`;
    case 'vip':
      return `开通VIP ${row.amount}天`;
  }
}

function record(row: RecordRow): ConsumptionRecord {
  const paid = row.kind === 'recharge' || row.kind === 'vip';
  return {
    id: row.id,
    kind: row.kind,
    coins: row.kind === 'purchase' ? -row.amount : row.kind === 'vip' ? 0 : row.amount,
    title: wording(row),
    payAmount: paid ? (row.orderPayAmount ?? 0) : 0,
    createdAt: chinaTimeParts(row.at).text,
  };
}

/** The reader's consumption records: coins in and out, and VIP bought, 20 a page, newest first. */
export async function consumption(
  { repo }: WalletDeps,
  userId: number,
  page: number,
): Promise<ConsumptionPage> {
  const { limit, offset } = pageWindow(page);
  const [rows, total] = await Promise.all([repo.records(userId, limit, offset), repo.recordCount(userId)]);
  return { list: rows.map(record), totalItem: total, totalPage: totalPages(total) };
}
