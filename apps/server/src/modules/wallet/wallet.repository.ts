import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Database, type Queryable, statementName } from '../../db/client.ts';
import { books, chapters, users, vipAdjustments } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';
import { discountedPrice, limitedFreeChapters } from './campaigns.repository.ts';
import { createLedgerRepository, type PurchaseResult } from './ledger.repository.ts';

export type BuyOutcome = PurchaseResult;

/** A line of the consumption records before it is worded: a ledger transfer or a paid VIP order. */
export interface RecordRow {
  id: string;
  kind: 'recharge' | 'bonus' | 'purchase' | 'vip' | 'grant' | 'revoke';
  /** Coins moved, or VIP days. */
  amount: number;
  bookTitle: string | null;
  chapterNumber: number | null;
  /** Cents the order was paid with; null when the line has no order. */
  orderPayAmount: number | null;
  at: Date;
}

/**
 * vip_end moved by `days`: more days count from the later of now and the current end (docs/api.md section 3); fewer
 * (an operator's shortening) count back from the current end, never to before now. The one expression of both.
 */
export const vipEndMovedBy = (days: number) =>
  days > 0
    ? sql`greatest(now(), coalesce(${users.vipEnd}, now())) + make_interval(days => ${days}::int)`
    : sql`greatest(now(), ${users.vipEnd} + make_interval(days => ${days}::int))`;

export function createWalletRepository(db: Database) {
  const ledger = createLedgerRepository(db);
  // Built once, and named on PostgreSQL (unnamed behind a transaction pooler, see statementName): every purchase
  // asks it, and building this query with drizzle took ~150 µs of CPU against ~30 µs to run it prepared
  // (bench/README.md, purchases).
  const chapterForSale = db
    // The price less a live discount for this reader (campaigns.repository.ts): the price shown is the one charged.
    .select({
      price: discountedPrice(
        { id: sql`${chapters.id}`, bookId: sql`${chapters.bookId}`, price: sql`${chapters.price}` },
        sql`${sql.placeholder('userId')}`,
      ),
      vipFree: books.vipFree,
    })
    .from(chapters)
    .innerJoin(books, eq(books.id, chapters.bookId))
    // An unpublished book's chapters are not for sale (its buyers keep what they bought).
    .where(
      and(
        eq(chapters.id, sql.placeholder('chapterId')),
        eq(books.published, true),
        isNull(chapters.publishAt),
      ),
    )
    .prepare(statementName(db, 'wallet_chapter_for_sale'));

  return {
    balanceOf: (userId: number, q?: Queryable) => ledger.balanceOf(userId, q),
    credit: ledger.credit,
    adjust: ledger.adjust,

    /**
     * VIP days, once per order, inside the transaction that marked it paid: vip_end = max(now, vip_end) + days
     * (docs/api.md section 3). The column lives on the user's row; only the wallet writes it.
     */
    async extendVip(tx: Queryable, userId: number, days: number) {
      const [row] = await tx
        .update(users)
        .set({
          vipEnd: vipEndMovedBy(days),
        })
        .where(eq(users.id, userId))
        .returning({ vipEnd: users.vipEnd });
      return row?.vipEnd ?? null;
    },

    /**
     * A refunded VIP order's days back, once under `id`: the reader's row locked, then vip_end moved back (never to
     * before now) and the change recorded in vip_adjustments. False when `id` was recorded before.
     */
    async shortenVipOnce(tx: Queryable, a: { id: string; userId: number; days: number }) {
      const [held] = await tx
        .select({ vipEnd: users.vipEnd })
        .from(users)
        .where(eq(users.id, a.userId))
        .for('update');
      const [before] = await tx.select().from(vipAdjustments).where(eq(vipAdjustments.id, a.id));
      if (before || !held || a.days <= 0) return false;
      const [row] = await tx
        .update(users)
        .set({ vipEnd: vipEndMovedBy(-a.days) })
        .where(eq(users.id, a.userId))
        .returning({ vipEnd: users.vipEnd });
      await tx.insert(vipAdjustments).values({
        id: a.id,
        userId: a.userId,
        days: -a.days,
        vipEndBefore: held.vipEnd,
        vipEndAfter: row?.vipEnd ?? null,
      });
      return true;
    },

    /**
     * Which of these chapters the user may read as owned now: bought (chapter_purchases) or a live unlock. The ids go as one array parameter: as a list
     * of parameters (`in ($2, …, $2001)`) a 2,000-chapter book cost ~8 ms of parsing and planning per call.
     */
    async ownedChapters(userId: number, chapterIds: number[]): Promise<Set<number>> {
      if (chapterIds.length === 0) return new Set();
      const ids = `{${chapterIds.map((id) => Math.trunc(id)).join(',')}}`;
      // Bought chapters, live stored unlocks (wait-for-free rentals, tickets) and live limited-free campaigns for the
      // reader: an ended unlock or campaign reads as locked.
      // The one place that decides "owns it now" for the reader, the chapter list and the pages.
      const rows = rowsOf<{ chapter_id: number }>(
        await db.execute(sql`
          select chapter_id from chapter_purchases
          where user_id = ${userId}::int and chapter_id = any(${ids}::int[])
          union
          select chapter_id from chapter_unlocks
          where user_id = ${userId}::int and chapter_id = any(${ids}::int[])
            and (ends_at is null or ends_at > now())
          union
          ${limitedFreeChapters(userId, ids)}`),
      );
      return new Set(rows.map((r) => r.chapter_id));
    },

    /** The price a purchase charges, read from the database, and whether VIP readers read it free. */
    async chapterForSale(chapterId: number, userId: number) {
      const [row] = await chapterForSale.execute({ chapterId, userId });
      return row;
    },

    /**
     * The ledger's purchase: one autocommit statement, no explicit transaction (ledger.buyChapter). Answers
     * the outcome and the balance after it; a short balance writes nothing.
     */
    buy: (p: { userId: number; chapterId: number; price: number }): Promise<BuyOutcome> =>
      ledger.buyChapter(p),

    /** Ledger transfers of the user and their paid VIP orders, newest first. */
    async records(userId: number, limit: number, offset: number): Promise<RecordRow[]> {
      // Each branch is cut to the rows the page can reach before the union is sorted, and the joins run
      // only for the page's rows.
      const reach = offset + limit;
      const result = await db.execute(sql`
        with mine as (
          select t.id, t.kind, t.amount, t.chapter_id, t.order_id, t.created_at as at
          from ledger_transfers t where t.user_id = ${userId}::int
          order by t.created_at desc, t.id limit ${reach}::int
        ), vip as (
          select 'vip:' || o.order_no as id, 'vip'::text as kind, o.item_count as amount,
                 null::int as chapter_id, o.id as order_id, o.paid_at as at
          from pay_orders o where o.user_id = ${userId}::int and o.purpose = 'vip' and o.status = 'paid'
          order by o.paid_at desc limit ${reach}::int
        ), page as (
          select * from mine union all select * from vip
          order by at desc, id limit ${limit}::int offset ${offset}::int
        )
        select page.id, page.kind, page.amount, b.title as book_title, c.number as chapter_number,
               o.pay_amount, page.at
        from page
        left join chapters c on c.id = page.chapter_id
        left join books b on b.id = c.book_id
        left join pay_orders o on o.id = page.order_id
        order by page.at desc, page.id`);
      return rowsOf<{
        id: string;
        kind: RecordRow['kind'];
        amount: number;
        book_title: string | null;
        chapter_number: number | null;
        pay_amount: number | null;
        at: Date | string;
      }>(result).map((r) => ({
        id: r.id,
        kind: r.kind,
        amount: r.amount,
        bookTitle: r.book_title,
        chapterNumber: r.chapter_number,
        orderPayAmount: r.pay_amount,
        at: new Date(r.at),
      }));
    },

    async recordCount(userId: number): Promise<number> {
      const result = await db.execute(sql`
        select (select count(*) from ledger_transfers where user_id = ${userId}::int)
             + (select count(*) from pay_orders
                where user_id = ${userId}::int and purpose = 'vip' and status = 'paid') as n`);
      return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
    },
  };
}

export type WalletRepository = ReturnType<typeof createWalletRepository>;
