// Setup for the wallet's tests: readers through the real register call, coins through the real ledger, and a
// book of chapters at known prices, all on the test database.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { dbKind } from '../../../test/test-database.ts';
import type { Database } from '../../db/client.ts';
import { books, categories, chapters } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';
import { createLedgerRepository } from './ledger.repository.ts';

/** Credits coins as a recharge would, from system:payments. */
export async function giveCoins(
  db: Database,
  userId: number,
  amount: number,
  kind: 'recharge' | 'bonus' = 'recharge',
) {
  const posted = await createLedgerRepository(db).credit(
    db,
    { transferId: `test:${randomUUID()}`, kind, userId, amount },
    kind === 'recharge' ? 'system:payments' : 'system:bonus',
  );
  if (!posted) throw new Error('coins not credited');
}

/** A book with one chapter per price, numbered from 1; chapter ids in number order. */
export async function newBook(db: Database, opts: { prices: number[]; vipFree?: boolean; title?: string }) {
  const [category] = await db
    .insert(categories)
    .values({ name: `钱包测试${randomUUID().slice(0, 8)}` })
    .returning();
  const [book] = await db
    .insert(books)
    .values({
      title: opts.title ?? '钱包测试之书',
      author: '测试作者',
      cover: 'covers/test-v.png',
      horiCover: 'covers/test-h.png',
      categoryId: category?.id ?? 0,
      publishStatus: 'serialize',
      vipFree: opts.vipFree ?? true,
      chapterCount: opts.prices.length,
    })
    .returning();
  if (!book) throw new Error('no book');
  const rows = await db
    .insert(chapters)
    .values(
      opts.prices.map((price, i) => ({
        bookId: book.id,
        number: i + 1,
        title: `第${i + 1}话`,
        cover: 'chapters/test.png',
        price,
        pics: [`pages/test-${book.id}-${i + 1}.png`],
      })),
    )
    .returning({ id: chapters.id, number: chapters.number, price: chapters.price });
  rows.sort((a, b) => a.number - b.number);
  return { bookId: book.id, chapters: rows };
}

export async function makeVip(db: Database, userId: number) {
  await db.execute(sql`update users set vip_end = now() + interval '30 days' where id = ${userId}`);
}

/** What the ledger holds for a user: balance, purchases (claims) and purchase transfers. */
export async function holdings(db: Database, userId: number) {
  const [row] = rowsOf<{ balance: number; claims: number; purchases: number; spent: number }>(
    await db.execute(sql`
      select coalesce((select balance from ledger_accounts where user_id = ${userId}), 0)::int as balance,
             (select count(*) from chapter_purchases where user_id = ${userId})::int as claims,
             (select count(*) from ledger_transfers where user_id = ${userId} and kind = 'purchase')::int as purchases,
             coalesce((select sum(amount) from ledger_transfers where user_id = ${userId} and kind = 'purchase'), 0)::int as spent`),
  );
  if (!row) throw new Error('no holdings row');
  return row;
}

/** list[index], failing the test when it is not there. */
export function nth<T>(list: readonly T[], index = 0): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index} in a list of ${list.length}`);
  return item;
}

/**
 * Runs `start` while another transaction holds the user's ledger account row, and lets go once `waiters`
 * statements of this database wait for a lock: each of them took its snapshot before any of them could buy,
 * so concurrent buys race as closely as they can. PostgreSQL only; on PGlite (one connection, statements in
 * turn) it just runs `start`. Keep `waiters` under the pool size minus one (this transaction's connection).
 */
export async function whileAccountLocked<T>(
  db: Database,
  userId: number,
  waiters: number,
  start: () => Promise<T>,
): Promise<T> {
  if (dbKind !== 'postgres') return start();
  let started: Promise<T> | undefined;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ledger_accounts where user_id = ${userId} for update`);
    started = start();
    // Awaited below; until then a failure must not count as unhandled.
    started.catch(() => {});
    const deadline = Date.now() + 10_000;
    for (;;) {
      // pg_stat_activity is read once per transaction unless its snapshot is cleared.
      await tx.execute(sql`select pg_stat_clear_snapshot()`);
      const [row] = rowsOf<{ n: number }>(
        await tx.execute(sql`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`),
      );
      if ((row?.n ?? 0) >= waiters) break;
      if (Date.now() > deadline) throw new Error(`only ${row?.n ?? 0} of ${waiters} statements waited`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  if (!started) throw new Error('not started');
  return started;
}
