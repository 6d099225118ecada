// Reads of the money state for the cross-module money tests (property and crash tests).
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { notificationBody } from '../../src/modules/payments/payments.test-support.ts';
import { rowsOf } from '../../src/shared/rows.ts';

export interface PricedChapter {
  chapterId: number;
  price: number;
  vipFree: boolean;
}

/** `perKind` priced chapters of VIP-free books, then `perKind` of books that are not VIP-free. */
export async function pricedChapters(db: Database, perKind: number): Promise<PricedChapter[]> {
  const pick = async (vipFree: boolean) =>
    rowsOf<PricedChapter>(
      await db.execute(sql`
        select c.id as "chapterId", c.price, b.vip_free as "vipFree"
        from chapters c join books b on b.id = c.book_id
        where c.price > 0 and b.vip_free = ${vipFree}
        order by c.id limit ${perKind}`),
    );
  const chapters = [...(await pick(true)), ...(await pick(false))];
  if (chapters.length !== perKind * 2) throw new Error('the demo library has too few priced chapters');
  return chapters;
}

export async function balanceOf(db: Database, userId: number): Promise<number> {
  const [row] = rowsOf<{ balance: number }>(
    await db.execute(sql`select balance::int as balance from ledger_accounts where user_id = ${userId}`),
  );
  return row?.balance ?? 0;
}

export async function ownedChapterIds(db: Database, userId: number): Promise<number[]> {
  return rowsOf<{ id: number }>(
    await db.execute(
      sql`select chapter_id as id from chapter_purchases where user_id = ${userId} order by chapter_id`,
    ),
  ).map((r) => r.id);
}

/** Priced chapters of the demo library, as the catalogue answers them over HTTP (a server process's tests). */
export async function pricedChaptersOverHttp(base: string): Promise<number[]> {
  const ids: number[] = [];
  for (const bookId of [1, 2, 3, 4]) {
    const detail = await (await fetch(`${base}/api/book/detail/${bookId}`)).json();
    for (const c of detail.data.chapterList as { chapterId: number; price: number }[])
      if (c.price > 0) ids.push(c.chapterId);
  }
  return ids;
}

/**
 * `count` new readers of a running server with 3300 coins each (one paid 30-yuan pack), paid through the sandbox's
 * notification as the gateway sends it, signed with the server's `SANDBOX_PAY_KEY`.
 */
export async function readersWithCoins(base: string, count: number, payKey: Buffer) {
  const readers: { cookie: string; userId: number }[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${base}/api/user/register`, { method: 'POST' });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { userId } = (await res.json()).data;
    const apply = await fetch(
      `${base}/h5/pay/apply?appType=shell&payChannel=alipay_app&payPurpose=coin&payPurposeId=2&rechargerAmount=3000`,
      { headers: { cookie } },
    );
    const { orderNo } = (await apply.json()).data;
    const notified = await fetch(`${base}/api/pay/notify/alipay_app`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: notificationBody(payKey, { orderNo, amount: '3000', tradeNo: `T${orderNo}` }),
    });
    expect(notified.status).toBe(200);
    readers.push({ cookie, userId });
  }
  return readers;
}
