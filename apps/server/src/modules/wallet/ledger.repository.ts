import { eq, sql } from 'drizzle-orm';
import { type Database, type Queryable, statementName } from '../../db/client.ts';
import { ledgerAccounts } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

/** System accounts, created by migration 0002: the other side of every coin movement. */
export type SystemAccount = 'system:payments' | 'system:bonus' | 'system:sales' | 'system:adjustments';

/** An operator's adjustment: `grant` moves coins from system:adjustments to the reader, `take` back to it. */
export interface Adjustment {
  /** `adjust:{userId}:{requestId}`: a retry of the same request collides here and moves nothing. */
  transferId: string;
  userId: number;
  direction: 'grant' | 'take';
  amount: number;
  memo: string;
}

/** What an adjustment did: posted, already posted under this id (what was posted then), or short of coins. */
export type AdjustmentResult =
  | { outcome: 'posted'; before: number; after: number }
  | {
      outcome: 'duplicate';
      balance: number;
      posted: { userId: number; kind: string; amount: number };
    }
  | { outcome: 'short'; balance: number };

export type CreditKind = 'recharge' | 'bonus';

export interface Credit {
  /** Deterministic, e.g. `order:{orderNo}:coins`: the same credit twice collides here and moves nothing. */
  transferId: string;
  kind: CreditKind;
  userId: number;
  amount: number;
  orderId?: number | null;
  memo?: string;
}

export interface Purchase {
  userId: number;
  chapterId: number;
  /** In coins, read from the database by the caller. */
  price: number;
}

export type PurchaseOutcome = 'owned' | 'bought' | 'short';

/** What a purchase did, and the user's balance after it (0 when the user has no ledger account). */
export interface PurchaseResult {
  outcome: PurchaseOutcome;
  balance: number;
}

/** A purchase's transfer id: `ledger_buy_chapter` (migration 0003) builds the same one in SQL. */
export const purchaseTransferId = (userId: number, chapterId: number) => `purchase:${userId}:${chapterId}`;

/** The unique keys a purchase writes: either colliding means a concurrent buy of the same chapter won. */
const PURCHASE_KEYS = new Set(['chapter_purchases_user_id_chapter_id_pk', 'ledger_transfers_pkey']);

const isPurchaseCollision = (err: unknown) => {
  const cause = (err as { cause?: { code?: string; constraint?: string } }).cause;
  return cause?.code === '23505' && (cause.constraint === undefined || PURCHASE_KEYS.has(cause.constraint));
};

/**
 * The only code that moves coins. Each movement is one SQL statement of data-modifying CTEs: the transfer row
 * (whose primary key makes it happen at most once), both entries, and the user's stored balance. Foreign keys
 * and CHECKs are checked at the end of the statement, so a negative balance or an unknown account fails the
 * whole statement and nothing is kept.
 *
 * A purchase is that one statement alone, in autocommit: PostgreSQL (and PGlite) runs a statement outside
 * BEGIN/COMMIT as a transaction of its own, so the debit, the claim, the transfer and its entries are kept
 * together or not at all, and no BEGIN/COMMIT round trips are spent on it. Its text lives in the database, as
 * the function `ledger_buy_chapter` (migration 0003), called by one statement, so its plan is kept.
 */
export function createLedgerRepository(db: Database) {
  /**
   * The purchase statement (see buyChapter): a call of `ledger_buy_chapter` (migration 0003), whose body is
   * one query of data-modifying CTEs, so PL/pgSQL keeps its plan for the session (PGlite, each pooled
   * PostgreSQL connection) and the statement sent is short to parse and plan. `owned` and the final select read
   * that query's snapshot. The debit is the only row it locks; the claim, the transfer
   * (`purchase:{userId}:{chapterId}`, as purchaseTransferId) and the entries are written from the debit's row,
   * so a call that does not debit writes nothing, and an error anywhere in it (the claim's key, a CHECK) undoes
   * the debit with the rest and reaches us with its code and constraint. Concurrent buys by one user queue on
   * the debit's row lock; a waiter then re-checks `balance >= price` on the new row version (PostgreSQL's
   * EvalPlanQual) but not `owned`, which stays what its snapshot saw: purchase() answers the two ways that can
   * end.
   */
  // Built once, and named on PostgreSQL (parsed once per connection; unnamed behind a transaction pooler, see
  // statementName); PGlite ignores the name, and it saves drizzle building the query on every purchase there too.
  const purchaseStatement = db
    .select({
      owned: sql<boolean>`owned`,
      debited: sql<number>`debited`,
      claimed: sql<number>`claimed`,
      entries: sql<number>`entries`,
      balance: sql<string | null>`balance::text`,
      held: sql<string | null>`held::text`,
    })
    .from(
      sql`ledger_buy_chapter(${sql.placeholder('userId')}::int, ${sql.placeholder('chapterId')}::int, ${sql.placeholder('price')}::int)`,
    )
    .prepare(statementName(db, 'ledger_buy_chapter'));

  /**
   * Whether the user holds the chapter now (bought, or a live stored unlock such as a rental: buying it then
   * charges nothing), and their balance now: a fresh statement, a fresh snapshot.
   */
  async function ownershipNow(p: Purchase): Promise<{ owned: boolean; balance: number }> {
    const [row] = rowsOf<{ owned: boolean; balance: string | null }>(
      await db.execute(sql`
        select exists (
                 select 1 from chapter_purchases
                 where user_id = ${p.userId}::int and chapter_id = ${p.chapterId}::int
                 union all
                 select 1 from chapter_unlocks
                 where id = ${`unlock:${p.userId}:${p.chapterId}`} and (ends_at is null or ends_at > now())
               ) as owned,
               (select balance from ledger_accounts where user_id = ${p.userId}::int)::text as balance`),
    );
    return { owned: row?.owned === true, balance: Number(row?.balance ?? 0) };
  }

  /** A chapter at price 0: a claim and no transfer (the ledger has no zero movements). */
  async function claimFree(p: Purchase): Promise<PurchaseResult> {
    const claimed = rowsOf(
      await db.execute(sql`
        insert into chapter_purchases (user_id, chapter_id, price)
        values (${p.userId}::int, ${p.chapterId}::int, 0)
        on conflict (user_id, chapter_id) do nothing
        returning 1`),
    );
    const { balance } = await ownershipNow(p);
    return { outcome: claimed.length === 1 ? 'bought' : 'owned', balance };
  }

  async function purchase(p: Purchase): Promise<PurchaseResult> {
    if (!Number.isInteger(p.price) || p.price < 0) throw new Error(`purchase at ${p.price} coins`);
    if (p.price === 0) return claimFree(p);
    let row:
      | {
          owned: boolean;
          debited: number;
          claimed: number;
          entries: number;
          balance: string | null;
          held: string | null;
        }
      | undefined;
    try {
      [row] = await purchaseStatement.execute({ userId: p.userId, chapterId: p.chapterId, price: p.price });
    } catch (err) {
      // A concurrent buy of this chapter committed after our snapshot and our debit passed the balance
      // re-check on its row: the claim's or the transfer's key refused ours, and the whole statement (debit
      // included) was rolled back. The chapter is owned; answer the balance as it is now.
      if (!isPurchaseCollision(err)) throw err;
      return { outcome: 'owned', balance: (await ownershipNow(p)).balance };
    }
    if (!row) throw new Error('the purchase statement answered no row');
    if (row.owned) return { outcome: 'owned', balance: Number(row.held ?? 0) };
    if (row.debited === 1) {
      // The claim, the transfer and both entries come from the debit's one row (a missing system account
      // fails the statement on a NOT NULL): this only asserts how the statement is built.
      if (row.claimed !== 1 || row.entries !== 2)
        throw new Error('purchase posted without its claim or entries');
      return { outcome: 'bought', balance: Number(row.balance) };
    }
    // Nothing was debited. Either the balance is short, or a concurrent buy of this chapter committed after
    // our snapshot: PostgreSQL re-checked `balance >= price` on that buy's new row version (not the NOT
    // EXISTS, read from our snapshot) and the balance it left is short. A fresh statement tells them apart.
    const now = await ownershipNow(p);
    return { outcome: now.owned ? 'owned' : 'short', balance: now.balance };
  }

  return {
    /**
     * Credits a user from a system account. True when coins moved, false when this transfer id was already
     * posted (a duplicate notification, a retry). Run it inside the transaction that decides the credit is due.
     */
    async credit(q: Queryable, c: Credit, from: SystemAccount): Promise<boolean> {
      if (!Number.isInteger(c.amount) || c.amount <= 0) throw new Error(`credit of ${c.amount} coins`);
      const result = await q.execute(sql`
        with transfer as (
          insert into ledger_transfers (id, kind, user_id, amount, order_id, memo)
          values (${c.transferId}::text, ${c.kind}::text, ${c.userId}::int, ${c.amount}::int, ${c.orderId ?? null}::int, ${c.memo ?? ''}::text)
          on conflict (id) do nothing
          returning id
        ), account as (
          insert into ledger_accounts (user_id, balance)
          select ${c.userId}::int, ${c.amount}::int from transfer
          on conflict (user_id) do update set balance = ledger_accounts.balance + excluded.balance
          returning id
        ), entries as (
          insert into ledger_entries (transfer_id, account_id, amount)
          select transfer.id, account.id, ${c.amount}::int from transfer, account
          union all
          select transfer.id, (select id from ledger_accounts where code = ${from}::text), ${-c.amount}::int from transfer
          returning 1
        )
        select (select count(*) from transfer)::int as posted, (select count(*) from entries)::int as entries`);
      const [row] = rowsOf<{ posted: number; entries: number }>(result);
      if (row && row.posted === 1 && row.entries !== 2) throw new Error('credit posted without both entries');
      return row?.posted === 1;
    },

    /**
     * Buys a chapter: one autocommit statement, never inside a caller's transaction (a key collision must abort
     * only this statement, and the ownership re-check needs a snapshot of its own). Answers what it did and
     * the balance after it:
     * - 'bought': `price` coins moved to system:sales and the claim written, all in the one statement (price 0:
     *   the claim alone);
     * - 'owned': bought before, or a concurrent buy of the same chapter won: nothing charged;
     * - 'short': the balance does not cover the price: nothing written.
     */
    buyChapter: purchase,

    /**
     * An operator's adjustment, inside the caller's transaction `tx` (which also writes the audit entry). The
     * reader's account row is locked first (made, at 0, if they have none), so adjustments and purchases of one
     * reader queue on it: a second request with the same transfer id finds the first one's transfer once it may
     * go on, and a take-back sees the balance every earlier movement left. Then one statement posts the transfer,
     * both entries and the stored balance; the balance's CHECK would refuse a negative one anyway.
     */
    async adjust(tx: Queryable, a: Adjustment): Promise<AdjustmentResult> {
      if (!Number.isInteger(a.amount) || a.amount <= 0) throw new Error(`adjustment of ${a.amount} coins`);
      await tx.execute(sql`
        insert into ledger_accounts (user_id, balance) values (${a.userId}::int, 0)
        on conflict (user_id) do nothing`);
      const [held] = rowsOf<{ balance: string }>(
        await tx.execute(sql`
          select balance::text as balance from ledger_accounts where user_id = ${a.userId}::int for update`),
      );
      const balance = Number(held?.balance ?? 0);
      const [posted] = rowsOf<{ user_id: number; kind: string; amount: number }>(
        await tx.execute(sql`
          select user_id, kind, amount from ledger_transfers where id = ${a.transferId}::text`),
      );
      if (posted)
        return {
          outcome: 'duplicate',
          balance,
          posted: { userId: posted.user_id, kind: posted.kind, amount: posted.amount },
        };
      if (a.direction === 'take' && balance < a.amount) return { outcome: 'short', balance };
      const signed = a.direction === 'grant' ? a.amount : -a.amount;
      const result = await tx.execute(sql`
        with transfer as (
          insert into ledger_transfers (id, kind, user_id, amount, memo)
          values (${a.transferId}::text, ${a.direction === 'grant' ? 'grant' : 'revoke'}::text, ${a.userId}::int,
                  ${a.amount}::int, ${a.memo}::text)
          returning id
        ), account as (
          update ledger_accounts set balance = balance + ${signed}::int
          where user_id = ${a.userId}::int and exists (select 1 from transfer)
          returning id, balance
        ), entries as (
          insert into ledger_entries (transfer_id, account_id, amount)
          select transfer.id, account.id, ${signed}::int from transfer, account
          union all
          select transfer.id, (select id from ledger_accounts where code = 'system:adjustments'), ${-signed}::int
          from transfer
          returning 1
        )
        select (select balance from account)::text as balance, (select count(*) from entries)::int as entries`);
      const [row] = rowsOf<{ balance: string | null; entries: number }>(result);
      if (row?.entries !== 2 || row.balance === null)
        throw new Error('adjustment posted without both entries');
      return { outcome: 'posted', before: balance, after: Number(row.balance) };
    },

    /**
     * Buys a bundle inside the caller's transaction `tx` (which holds the reader's unlock lock and chose the
     * chapters): one statement debits `total` coins (only if the balance covers it), posts ONE transfer
     * `bundle.transferId` of kind purchase to system:sales with its two entries, and writes one purchase row per
     * chapter at its share of the total (the shares sum to the total) naming the transfer as its bundle.
     * Answers false, writing nothing, when the balance is short.
     */
    async buyBundle(
      tx: Queryable,
      b: {
        transferId: string;
        userId: number;
        lastChapterId: number;
        total: number;
        chapters: { chapterId: number; share: number }[];
        memo: string;
      },
    ): Promise<boolean> {
      if (!Number.isInteger(b.total) || b.total <= 0) throw new Error(`bundle at ${b.total} coins`);
      if (b.chapters.reduce((sum, c) => sum + c.share, 0) !== b.total)
        throw new Error('bundle shares do not sum to its total');
      const ids = `{${b.chapters.map((c) => c.chapterId).join(',')}}`;
      const shares = `{${b.chapters.map((c) => c.share).join(',')}}`;
      const [row] = rowsOf<{ debited: number; claimed: number; entries: number }>(
        await tx.execute(sql`
          with debit as (
            update ledger_accounts set balance = balance - ${b.total}::int
            where user_id = ${b.userId}::int and balance >= ${b.total}::int
            returning id, balance
          ), transfer as (
            insert into ledger_transfers (id, kind, user_id, amount, chapter_id, memo)
            select ${b.transferId}::text, 'purchase', ${b.userId}::int, ${b.total}::int, ${b.lastChapterId}::int,
                   ${b.memo}::text
            from debit
            returning id
          ), claim as (
            insert into chapter_purchases (user_id, chapter_id, price, bundle_id)
            select ${b.userId}::int, c.chapter_id, c.share, transfer.id
            from transfer, unnest(${ids}::int[], ${shares}::int[]) as c(chapter_id, share)
            returning 1
          ), entries as (
            insert into ledger_entries (transfer_id, account_id, amount)
            select transfer.id, debit.id, ${-b.total}::int from transfer, debit
            union all
            select transfer.id, (select id from ledger_accounts where code = 'system:sales'), ${b.total}::int
            from transfer
            returning 1
          )
          select (select count(*) from debit)::int as debited, (select count(*) from claim)::int as claimed,
                 (select count(*) from entries)::int as entries`),
      );
      if (row?.debited !== 1) return false;
      if (row.claimed !== b.chapters.length || row.entries !== 2)
        throw new Error('bundle posted without its purchases or entries');
      return true;
    },

    /** The user's coins (0 without a ledger account). */
    async balanceOf(userId: number, q: Queryable = db): Promise<number> {
      const [row] = await q
        .select({ balance: ledgerAccounts.balance })
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.userId, userId));
      return row?.balance ?? 0;
    },
  };
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
