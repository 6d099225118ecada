// The unlock ledger's invariants, asserted after every test that grants, spends or unlocks.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';

/**
 * Every spent ticket was spent before its expiry on exactly one chapter, and that chapter's unlock names it (or a
 * later unlock replaced it after it ended); every ticket unlock names a ticket spent on that chapter by that reader;
 * every stored unlock's id is its reader and chapter; no chapter is both bought and held by a live stored unlock.
 */
export async function expectUnlockInvariants(db: Database) {
  const rows = async (q: ReturnType<typeof sql>) => rowsOf(await db.execute(q));
  expect(
    await rows(sql`select id from reading_tickets where spent_at is not null and spent_at >= expires_at`),
    'no ticket is spent at or after its expiry',
  ).toEqual([]);
  expect(
    await rows(sql`select u.id from chapter_unlocks u left join reading_tickets t on t.id = u.ticket_id
                   where u.source = 'ticket' and (t.id is null or t.user_id <> u.user_id
                     or t.spent_chapter_id is distinct from u.chapter_id or t.spent_at is null)`),
    'each ticket unlock was paid by a ticket spent on it',
  ).toEqual([]);
  expect(
    await rows(
      sql`select ticket_id from chapter_unlocks where ticket_id is not null group by ticket_id having count(*) > 1`,
    ),
    'a ticket pays at most one unlock',
  ).toEqual([]);
  expect(
    await rows(sql`select t.id from reading_tickets t where t.spent_at is not null and not exists (
                     select 1 from chapter_unlocks u where u.ticket_id = t.id)
                   and not exists (select 1 from chapter_unlocks u where u.user_id = t.user_id
                     and u.chapter_id = t.spent_chapter_id and u.created_at >= t.spent_at)`),
    'every spent ticket made an unlock',
  ).toEqual([]);
  expect(
    await rows(sql`select id from chapter_unlocks where id <> 'unlock:' || user_id || ':' || chapter_id`),
    'stored unlock ids are deterministic',
  ).toEqual([]);
  expect(
    await rows(sql`select u.id from chapter_unlocks u join chapter_purchases p
                     on p.user_id = u.user_id and p.chapter_id = u.chapter_id
                   where u.ends_at is null or u.ends_at > now()`),
    'a bought chapter is not also held by a live unlock',
  ).toEqual([]);
}
