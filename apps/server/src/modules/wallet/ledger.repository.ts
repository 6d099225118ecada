import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { ledgerAccounts } from '../../db/schema/index.ts';

/** The database or a transaction on it: ledger writes run inside the caller's transaction. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

/** System accounts, created by migration 0002: the other side of every coin movement. */
export type SystemAccount = 'system:payments' | 'system:bonus' | 'system:sales';

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

const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

export interface Purchase {
  userId: number;
  chapterId: number;
  /** In coins, read from the database by the caller. */
  price: number;
}

export type PurchaseOutcome = 'owned' | 'bought' | 'short';

export const purchaseTransferId = (userId: number, chapterId: number) => `purchase:${userId}:${chapterId}`;

/**
 * The only code that moves coins. Each movement is one SQL statement of data-modifying CTEs: the transfer row
 * (whose primary key makes it happen at most once), both entries, and the user's stored balance. Foreign keys
 * and CHECKs are checked at the end of the statement, so a negative balance or an unknown account fails the
 * whole statement and nothing is kept.
 */
export function createLedgerRepository(db: Database) {
  /** The purchase statement (see buyChapter). */
  async function purchase(
    q: Queryable,
    p: Purchase,
  ): Promise<{ outcome: PurchaseOutcome; balance: number | null }> {
    const transferId = purchaseTransferId(p.userId, p.chapterId);
    const result = await q.execute(sql`
      with claim as (
        insert into chapter_purchases (user_id, chapter_id, price)
        values (${p.userId}::int, ${p.chapterId}::int, ${p.price}::int)
        on conflict (user_id, chapter_id) do nothing
        returning user_id
      ), debit as (
        update ledger_accounts set balance = balance - ${p.price}::int
        where user_id = ${p.userId}::int and balance >= ${p.price}::int and ${p.price}::int > 0
          and exists (select 1 from claim)
        returning id, balance
      ), transfer as (
        insert into ledger_transfers (id, kind, user_id, amount, chapter_id)
        select ${transferId}::text, 'purchase', ${p.userId}::int, ${p.price}::int, ${p.chapterId}::int from debit
        returning id
      ), entries as (
        insert into ledger_entries (transfer_id, account_id, amount)
        select transfer.id, debit.id, ${-p.price}::int from transfer, debit
        union all
        select transfer.id, (select id from ledger_accounts where code = 'system:sales'), ${p.price}::int from transfer
        returning 1
      )
      select (select count(*) from claim)::int as claimed, (select count(*) from debit)::int as debited,
             (select count(*) from entries)::int as entries, (select balance from debit)::text as balance`);
    const [row] = rowsOf<{ claimed: number; debited: number; entries: number; balance: string | null }>(
      result,
    );
    if (!row || row.claimed === 0) return { outcome: 'owned', balance: null };
    if (p.price === 0) return { outcome: 'bought', balance: null };
    if (row.debited === 0) return { outcome: 'short', balance: null };
    if (row.entries !== 2) throw new Error('purchase posted without both entries');
    return { outcome: 'bought', balance: Number(row.balance) };
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
     * Claims the chapter for the user and pays for it, in one statement, inside the caller's transaction:
     * - 'owned': the claim already existed (bought before, or a concurrent buy won): nothing charged;
     * - 'bought': claimed and `price` coins moved to system:sales (price 0 claims without a transfer);
     * - 'short': claimed but the balance is short; the caller must roll back so the claim is not kept.
     * A concurrent buy of the same chapter waits on the claim's unique key and then sees 'owned'.
     */
    async buyChapter(q: Queryable, p: Purchase): Promise<PurchaseOutcome> {
      return (await purchase(q, p)).outcome;
    },

    /**
     * buyChapter, also answering the balance the debit left ('bought' with a price), read from the same
     * statement so a purchase needs no second query; null otherwise.
     */
    buyChapterWithBalance: purchase,

    /** The user's coins; pass the transaction to read its own uncommitted purchase. */
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
