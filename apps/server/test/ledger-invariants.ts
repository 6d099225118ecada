// The ledger's invariants (docs/api.md section 3), asserted after every money test.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { rowsOf } from '../src/shared/rows.ts';

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/**
 * All entries sum to zero, every transfer's entries sum to zero and there are exactly two of them, every user
 * account's stored balance equals the sum of its entries, no user balance is negative, every purchase with a
 * price has its transfer, and every paid order was credited exactly what it bought.
 */
export async function expectLedgerInvariants(db: Database) {
  const [total] = await rows<{ sum: string | null }>(
    db,
    sql`select sum(amount)::text as sum from ledger_entries`,
  );
  expect(Number(total?.sum ?? 0), 'all entries sum to zero').toBe(0);

  const unbalanced = await rows(
    db,
    sql`select transfer_id, sum(amount)::int as sum, count(*)::int as n from ledger_entries
        group by transfer_id having sum(amount) <> 0 or count(*) <> 2`,
  );
  expect(unbalanced, 'each transfer has two entries summing to zero').toEqual([]);

  const orphans = await rows(
    db,
    sql`select t.id from ledger_transfers t where not exists (select 1 from ledger_entries e where e.transfer_id = t.id)`,
  );
  expect(orphans, 'every transfer has entries').toEqual([]);

  const drift = await rows(
    db,
    sql`select a.user_id, a.balance::int as stored, coalesce(sum(e.amount), 0)::int as entries
        from ledger_accounts a left join ledger_entries e on e.account_id = a.id
        where a.user_id is not null group by a.id having a.balance <> coalesce(sum(e.amount), 0)`,
  );
  expect(drift, 'user balances equal the sum of their entries').toEqual([]);

  const negative = await rows(
    db,
    sql`select user_id from ledger_accounts where user_id is not null and balance < 0`,
  );
  expect(negative, 'no user balance is negative').toEqual([]);

  const unpaid = await rows(
    db,
    sql`select p.user_id, p.chapter_id from chapter_purchases p
        where p.price > 0 and p.bundle_id is null and not exists (
          select 1 from ledger_transfers t
          where t.id = 'purchase:' || p.user_id || ':' || p.chapter_id and t.amount = p.price)`,
  );
  expect(unpaid, 'every priced purchase was paid once').toEqual([]);

  // A bundle: one transfer of its reader, the shares of its purchase rows summing to it.
  const misbundled = await rows(
    db,
    sql`select t.id from ledger_transfers t join chapter_purchases p on p.bundle_id = t.id
        group by t.id having sum(p.price) <> t.amount or bool_or(p.user_id <> t.user_id)
          or bool_or(t.kind <> 'purchase')`,
  );
  expect(misbundled, 'every bundle was paid once, its shares summing to its transfer').toEqual([]);

  const miscredited = await rows(
    db,
    sql`select o.order_no, o.status, coalesce(sum(t.amount), 0)::int as credited,
               case when o.status = 'paid' and o.purpose = 'coin' then o.item_count + o.present_count else 0 end as due
        from pay_orders o left join ledger_transfers t on t.order_id = o.id and t.id not like 'first-pay:%'
        group by o.id
        having coalesce(sum(t.amount), 0) <>
               case when o.status = 'paid' and o.purpose = 'coin' then o.item_count + o.present_count else 0 end`,
  );
  expect(miscredited, 'paid coin orders credited exactly once, others not at all').toEqual([]);

  // The first-recharge offer (`first-pay:{userId}`, once per reader by its id): the amount its order was made with,
  // on a paid order of that reader.
  const misoffered = await rows(
    db,
    sql`select t.id, t.amount, o.first_pay_bonus, o.status from ledger_transfers t
        left join pay_orders o on o.id = t.order_id
        where t.id like 'first-pay:%'
          and (o.id is null or o.status <> 'paid' or t.amount <> o.first_pay_bonus
               or t.id <> 'first-pay:' || o.user_id)`,
  );
  expect(
    misoffered,
    'a first-recharge offer is its paid order’s, at the amount the order was made with',
  ).toEqual([]);
}
