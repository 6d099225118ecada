// The reconciliation queries of docs/operations.md ("Payments", "Backups"), runnable on either database:
// `npm run reconcile` (cli/data-cli.ts) runs them itself on PostgreSQL or a stopped data directory, or has the server
// that holds the embedded database run them (its control socket). Checks are the ledger's invariants (docs/api.md
// section 3): any row they answer is a discrepancy. The other sections are the day's orders and what to look at.
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../shared/rows.ts';
import type { Database } from './client.ts';

export interface ReconcileSection {
  title: string;
  /** A check: every row is a discrepancy. Otherwise the rows are for reading. */
  check: boolean;
  rows: Record<string, unknown>[];
}

export interface ReconcileOptions {
  /** A China-time day, YYYY-MM-DD: its orders with what they credited. Default: today in China. */
  day?: string;
  /** An order number: its history of states. */
  orderNo?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const isDay = (day: string) => DAY.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00+08:00`));

/** Today in China (UTC+8), YYYY-MM-DD. */
export const chinaToday = (now = new Date()) =>
  new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);

const CHECKS: [string, SQL][] = [
  [
    'ledger: all entries sum to zero',
    sql`select sum(amount)::text as sum from ledger_entries having coalesce(sum(amount), 0) <> 0`,
  ],
  [
    'ledger: transfers of other than two entries summing to zero',
    sql`select transfer_id, sum(amount)::text as sum, count(*)::int as entries from ledger_entries
        group by transfer_id having sum(amount) <> 0 or count(*) <> 2 order by transfer_id`,
  ],
  [
    'ledger: transfers without entries',
    sql`select t.id from ledger_transfers t
        where not exists (select 1 from ledger_entries e where e.transfer_id = t.id) order by t.id`,
  ],
  [
    'ledger: balances that differ from the sum of their entries',
    sql`select a.user_id, a.balance::text as stored, coalesce(sum(e.amount), 0)::text as entries
        from ledger_accounts a left join ledger_entries e on e.account_id = a.id
        where a.user_id is not null group by a.id having a.balance <> coalesce(sum(e.amount), 0)
        order by a.user_id`,
  ],
  [
    'ledger: negative balances',
    sql`select user_id, balance::text as balance from ledger_accounts
        where user_id is not null and balance < 0 order by user_id`,
  ],
  [
    'ledger: priced purchases without their payment',
    sql`select p.user_id, p.chapter_id, p.price from chapter_purchases p
        where p.price > 0 and not exists (
          select 1 from ledger_transfers t
          where t.id = 'purchase:' || p.user_id || ':' || p.chapter_id and t.amount = p.price)
        order by p.user_id, p.chapter_id`,
  ],
  [
    'orders: paid coin orders not credited exactly once, others credited',
    sql`select o.order_no, o.status, coalesce(sum(t.amount), 0)::text as credited,
               (case when o.status = 'paid' and o.purpose = 'coin' then o.item_count + o.present_count else 0 end)::text as due
        from pay_orders o left join ledger_transfers t on t.order_id = o.id
        group by o.id
        having coalesce(sum(t.amount), 0) <>
               case when o.status = 'paid' and o.purpose = 'coin' then o.item_count + o.present_count else 0 end
        order by o.id`,
  ],
];

/** Runs every check and report section; a section whose query fails says so in its rows' place. */
export async function reconcile(db: Database, opts: ReconcileOptions = {}): Promise<ReconcileSection[]> {
  const day = opts.day ?? chinaToday();
  if (!isDay(day)) throw new Error(`not a day: ${day}`);
  const rows = async (query: SQL) => rowsOf<Record<string, unknown>>(await db.execute(query));
  const sections: ReconcileSection[] = [];
  for (const [title, query] of CHECKS) sections.push({ title, check: true, rows: await rows(query) });
  sections.push({
    title: `orders of ${day} (China time) with what they credited`,
    check: false,
    rows: await rows(sql`
      select o.order_no, o.status, o.channel, o.pay_amount, o.gateway_trade_no, o.paid_at::text as paid_at,
             o.trace_id, o.client_ip, o.branch_id, o.app_type, coalesce(sum(t.amount), 0)::text as coins_credited
      from pay_orders o left join ledger_transfers t on t.order_id = o.id
      where o.created_at >= (${day}::text || ' 00:00+08')::timestamptz
        and o.created_at < (${day}::text || ' 00:00+08')::timestamptz + interval '1 day'
      group by o.id order by o.id`),
  });
  if (opts.orderNo !== undefined) {
    sections.push({
      title: `history of order ${opts.orderNo}`,
      check: false,
      rows: await rows(sql`
        select e.at::text as at, e.from_status, e.to_status, e.source, e.detail
        from pay_order_events e join pay_orders o on o.id = e.order_id
        where o.order_no = ${opts.orderNo} order by e.id`),
    });
  }
  sections.push({
    title: 'refused notifications and double payments',
    check: false,
    rows: await rows(sql`
      select o.order_no, e.at::text as at, e.detail from pay_order_events e join pay_orders o on o.id = e.order_id
      where e.detail like 'refused:%' or e.detail like 'second payment%' order by e.at desc`),
  });
  sections.push({
    title: 'sandbox notifications owed',
    check: false,
    rows: await rows(sql`
      select trade_no, order_no, attempts, next_attempt_at::text as next_attempt_at from sandbox_payments
      where status = 'paid' and acknowledged_at is null order by next_attempt_at`),
  });
  return sections;
}
