// Reads of the money state for the cross-module money tests (property and crash tests).
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
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
