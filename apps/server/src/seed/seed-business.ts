import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { createDashboardSummary } from '../modules/payments/dashboard.summary.repository.ts';
import { chinaDate, chinaDay } from '../shared/china-time.ts';
import { generatePassword, hashPassword } from '../shared/passwords/password.ts';
import { rowsOf } from '../shared/rows.ts';

export interface BusinessOptions {
  /** Readers with an account (as many first visits again never register). */
  readers: number;
  /** Promotion branches the visits come through (ids 1001 on, named 推广渠道 N). */
  branches: number;
  /** How many days back the visits, orders and reading go (365: a year). */
  days: number;
}

export const MAX_BUSINESS_READERS = 1_000_000;
export const MAX_BUSINESS_BRANCHES = 1000;
export const MAX_BUSINESS_DAYS = 730;
/** Readers per statement: bounds the memory one batch needs on either driver. */
const READERS_PER_BATCH = 20_000;
const FIRST_BRANCH = 1001;

/**
 * Adds a business's history for measuring the dashboard: first visits through promotion branches, half of them
 * registering, a fifth of those paying 1–4 orders (most paid, some left unpaid, a few refunded), the payers buying
 * chapters, every reader reading a few books, some unlocking chapters wait-for-free, and the China days each reader
 * came back on (returning readers decaying over the days after the first). Set-based SQL (generate_series,
 * every "random" choice a hash of the row number), a batch of readers per statement. The orders and purchases move
 * no coins in the ledger: a measuring database, not a shop (`npm run reconcile` reports them).
 */
export async function seedBusiness(db: Database, opts: BusinessOptions) {
  const check = (name: string, value: number, max: number) => {
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw new RangeError(`${name} must be a whole number from 1 to ${max}, got ${value}`);
  };
  check('readers', opts.readers, MAX_BUSINESS_READERS);
  check('branches', opts.branches, MAX_BUSINESS_BRANCHES);
  check('days', opts.days, MAX_BUSINESS_DAYS);
  const started = performance.now();
  const [shop] = rowsOf<{ configs: number; channel: string | null; chapters: number; books: number }>(
    await db.execute(sql`
      select (select count(*) from pay_configs where type = 'coin')::int as configs,
             (select sub_type_code from pay_channels order by sort, sub_type_code limit 1) as channel,
             (select count(*) from chapters where price > 0)::int as chapters,
             (select count(*) from books)::int as books`),
  );
  if (!shop || shop.configs === 0 || !shop.channel || shop.chapters === 0 || shop.books === 0) {
    throw new Error('the business seed needs the shop and the library: seed the demo library first');
  }
  // One password hash for every seeded reader (a password nobody knows): hashing 100,000 would take hours.
  const hash = await hashPassword(generatePassword(24));
  const [last] = rowsOf<{ n: number }>(
    await db.execute(sql`select coalesce(max(id), 0)::int as n from users`),
  );
  const base = last?.n ?? 0;
  const minutes = opts.days * 1440;

  await db.execute(sql`
    insert into branch_settings (branch_id, name)
    select ${FIRST_BRANCH} + n - 1, '推广渠道 ' || n from generate_series(1, ${opts.branches}::int) as n
    on conflict (branch_id) do nothing`);

  for (let from = 1; from <= opts.readers; from += READERS_PER_BATCH) {
    const to = Math.min(opts.readers, from + READERS_PER_BATCH - 1);
    // Visitor g (of 2 per reader: odd ones register) came through branch b at t.
    await db.execute(sql`
      insert into visit_marks (branch_id, visitor_id, created_at)
      select ${FIRST_BRANCH} + (hashint4(g)::bigint & 2147483647) % ${opts.branches},
             'seed-' || ${base} || '-' || g,
             now() - make_interval(mins => ((hashint4(g * 7)::bigint & 2147483647) % ${minutes})::int)
      from generate_series(${2 * from - 1}::int, ${2 * to}::int) as g`);
    await db.execute(sql`
      insert into users (account, password_hash, visitor_id, branch_id, created_at)
      select 'ydseed' || ${base} || 'x' || g, ${hash}, v.visitor_id, v.branch_id,
             least(now(), v.created_at + make_interval(mins => ((hashint4(g * 3)::bigint & 2147483647) % 180)::int))
      from generate_series(${2 * from - 1}::int, ${2 * to}::int, 2) as g
      join visit_marks v on v.visitor_id = 'seed-' || ${base} || '-' || g`);
  }
  // The batches' readers, by id (the accounts name the run).
  const readers = sql`
    select u.id, u.branch_id, u.created_at, (hashint4(u.id)::bigint & 2147483647) as h
    from users u where u.account like ${`ydseed${base}x%`}`;
  // A fifth pay 1–4 orders; one in ten orders is left unpaid (created or expired).
  await db.execute(sql`
    with r as (${readers}), c as (
      select array_agg(id order by id) as ids, array_agg(amount_level order by id) as amounts,
             array_agg(item_count order by id) as items
      from pay_configs where type = 'coin'
    ), o as (
      select r.id as user_id, r.branch_id, k,
             (hashint4(r.id * 5 + k)::bigint & 2147483647) as h,
             r.created_at + (now() - r.created_at) * (((hashint4(r.id * 11 + k)::bigint & 2147483647) % 1000) / 1000.0) as at
      from r cross join generate_series(1, 4) as k
      where r.h % 5 = 0 and k <= 1 + r.h % 4
    )
    insert into pay_orders (order_no, user_id, pay_config_id, purpose, channel, gateway, amount_level, pay_amount,
      item_count, status, branch_id, app_type, created_at, expires_at, paid_at)
    select 'SEED' || ${base} || 'U' || o.user_id || 'K' || o.k, o.user_id, c.ids[1 + o.h % cardinality(c.ids)], 'coin',
           ${shop.channel}, 'sandbox', c.amounts[1 + o.h % cardinality(c.ids)], c.amounts[1 + o.h % cardinality(c.ids)],
           c.items[1 + o.h % cardinality(c.ids)],
           case when o.h % 10 = 0 then 'created' when o.h % 10 = 1 then 'expired' else 'paid' end,
           o.branch_id, 'wap_browser', o.at, o.at + interval '15 minutes',
           case when o.h % 10 > 1 then o.at + interval '1 minute' end
    from o cross join c`);
  // Two in a hundred paid orders are refunded in full a day later (or now, if that is still to come).
  await db.execute(sql`
    insert into pay_refunds (refund_no, order_id, amount, reason, state, actor, created_at, updated_at)
    select 'SEEDR' || o.id, o.id, o.pay_amount, '测试数据', 'success', 'seed',
           least(now(), o.paid_at + interval '1 day'), least(now(), o.paid_at + interval '1 day')
    from pay_orders o
    where o.order_no like ${`SEED${base}U%`} and o.status = 'paid' and o.id % 50 = 0`);
  // Payers buy 5–24 priced chapters after they register.
  await db.execute(sql`
    with r as (${readers}), ch as (select array_agg(id order by id) as ids from chapters where price > 0)
    insert into chapter_purchases (user_id, chapter_id, price, created_at)
    select r.id, c.id, c.price,
           r.created_at + (now() - r.created_at) * (((hashint4(r.id * 13 + k)::bigint & 2147483647) % 1000) / 1000.0)
    from r cross join ch cross join generate_series(1, 24) as k
    join chapters c on c.id = ch.ids[1 + (hashint4(r.id * 17 + k)::bigint & 2147483647) % cardinality(ch.ids)]
    where r.h % 5 = 0 and k <= 5 + r.h % 20
    on conflict do nothing`);
  // Everyone reads 1–3 books; one in ten unlocks 1–3 chapters wait-for-free.
  await db.execute(sql`
    with r as (${readers}), b as (select array_agg(id order by id) as ids from books)
    insert into reading_progress (user_id, book_id, chapter_number, page_number, read_at)
    select r.id, b.ids[1 + (hashint4(r.id * 19 + k)::bigint & 2147483647) % cardinality(b.ids)], 1, 1,
           r.created_at + (now() - r.created_at) * (((hashint4(r.id * 23 + k)::bigint & 2147483647) % 1000) / 1000.0)
    from r cross join b cross join generate_series(1, 3) as k
    where k <= 1 + r.h % 3
    on conflict do nothing`);
  await db.execute(sql`
    with r as (${readers}), ch as (select array_agg(id order by id) as ids from chapters where price > 0), u as (
      select r.id as user_id, ch.ids[1 + (hashint4(r.id * 29 + k)::bigint & 2147483647) % cardinality(ch.ids)] as chapter_id,
             r.created_at + (now() - r.created_at) * (((hashint4(r.id * 31 + k)::bigint & 2147483647) % 1000) / 1000.0) as at
      from r cross join ch cross join generate_series(1, 3) as k
      where r.h % 10 = 3 and k <= 1 + r.h % 3
    )
    insert into chapter_unlocks (id, user_id, chapter_id, source, ends_at, created_at)
    select 'unlock:' || user_id || ':' || chapter_id, user_id, chapter_id, 'wait_free', at + interval '72 hours', at
    from u
    on conflict do nothing`);
  await seedReaderDays(db, readers);
  await db.execute(sql`analyze`);
  // The history is written with past times: the dashboard's daily summary of those days is made again from it.
  const now = new Date();
  const firstDay = chinaDay(chinaDate(now, -opts.days - 1));
  const today = chinaDay(chinaDate(now));
  if (firstDay && today) await createDashboardSummary(db).rebuild(firstDay.from, today.to, now);

  const [counts] = rowsOf<Record<string, number>>(
    await db.execute(sql`
      select (select count(*) from users where account like ${`ydseed${base}x%`})::int as readers,
             (select count(*) from pay_orders where order_no like ${`SEED${base}U%`})::int as orders,
             (select count(*) from chapter_purchases)::int as purchases,
             (select count(*) from visit_marks)::int as visits,
             (select count(*) from reader_days)::int as reader_days`),
  );
  return {
    readers: counts?.readers ?? 0,
    orders: counts?.orders ?? 0,
    purchases: counts?.purchases ?? 0,
    visits: counts?.visits ?? 0,
    readerDays: counts?.reader_days ?? 0,
    ms: Math.round(performance.now() - started),
  };
}

/** How many days after the first the seed brings readers back on (beyond them the dashboard reads nothing). */
const RETURN_DAYS_SEEDED = 60;

/**
 * The China days the seeded readers were seen on, as the users module writes them (reader_days): the first day (the
 * account's), then day k with a chance decaying as 45 % × k^-0.6 (day 1 about 45 %, day 7 about 14 %, day 30 about
 * 6 %), a little higher or lower per promotion branch, up to today and the first RETURN_DAYS_SEEDED days.
 */
async function seedReaderDays(db: Database, readers: ReturnType<typeof sql>) {
  await db.execute(sql`
    with r as (${readers}), d as (
      select r.id, r.branch_id, k, (r.created_at at time zone 'Asia/Shanghai')::date + k as day
      from r cross join generate_series(0, ${RETURN_DAYS_SEEDED}::int) as k
      where k = 0 or (hashint4(r.id * 37 + k)::bigint & 2147483647) % 10000
        < 4500 * (0.75 + 0.1 * (r.branch_id % 6)) / power(k, 0.6)
    )
    insert into reader_days (user_id, day, age, branch_id)
    select id, day, k, branch_id from d where day <= (now() at time zone 'Asia/Shanghai')::date
    on conflict do nothing`);
}
