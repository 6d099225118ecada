import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { dbKind, describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { type Database, poolOf } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';
import { createUnlocksRepository, type UnlockBy, unlockId } from './unlocks.repository.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { giveCoins, newBook, nth } from './wallet-test-kit.ts';

async function setRules(
  db: Database,
  bookId: number,
  r: { waitMinutes?: number | null; rentalHours?: number; earlyAccessChapters?: number },
) {
  await db.execute(sql`
    insert into book_unlock_rules (book_id, wait_minutes, rental_hours, early_access_chapters)
    values (${bookId}::int, ${r.waitMinutes ?? null}::int, ${r.rentalHours ?? 72}::int, ${r.earlyAccessChapters ?? 0}::int)`);
}

async function grantTicket(
  db: Database,
  userId: number,
  t: { kind?: 'read' | 'presale'; rentalHours?: number | null; scope?: number[] | null; expiresIn: string },
) {
  const scope = t.scope ? `{${t.scope.join(',')}}` : null;
  const [row] = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into reading_tickets (grant_id, user_id, kind, rental_hours, scope_book_ids, source, expires_at)
      values (${`test:${randomUUID()}`}, ${userId}::int, ${t.kind ?? 'read'}, ${t.rentalHours ?? null}::int,
              ${scope}::int[], 'grant', now() + ${t.expiresIn}::interval)
      returning id`),
  );
  return row?.id ?? 0;
}

describeDb('the unlock ledger: wait-for-free, tickets and coins', () => {
  let t: TestApp;
  let repo: ReturnType<typeof createUnlocksRepository>;
  const read = (reader: TestVisitor, bookId: number, number: number) =>
    t.app.inject({
      url: `/api/book/read_chapter?bookId=${bookId}&number=${number}`,
      headers: { cookie: reader.cookie },
    });
  const list = async (reader: TestVisitor, bookId: number) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `/api/book/chapter/list?bookId=${bookId}`,
        headers: { cookie: reader.cookie },
      })
    ).json().data as { chapterId: number; alreadyBuy: boolean }[];
  const unlock = (reader: TestVisitor, bookId: number, chapterId: number, by: UnlockBy) =>
    repo.unlock({ userId: reader.userId, bookId, chapterId, by });

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
    repo = createUnlocksRepository(t.db);
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
    await expectUnlockInvariants(t.db);
  });
  afterAll(() => t?.close());

  describe('wait-for-free', () => {
    it('unlocks one priced chapter as a rental, restarts the wait, and reads it', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60, rentalHours: 72 });
      const reader = await registerVisitor(t);
      expect((await read(reader, bookId, 2)).json().code).toBe(999);

      const made = await unlock(reader, bookId, nth(chapters, 1).id, 'wait_free');
      expect(made).toMatchObject({ outcome: 'unlocked', source: 'wait_free' });
      const hours =
        made.outcome === 'unlocked' && made.endsAt ? (made.endsAt.getTime() - Date.now()) / 3_600_000 : 0;
      expect(hours).toBeGreaterThan(71.9);
      expect(hours).toBeLessThanOrEqual(72);
      expect((await read(reader, bookId, 2)).json()).toMatchObject({ result: true, code: 200 });
      expect((await list(reader, bookId)).map((c) => c.alreadyBuy)).toEqual([false, true, false, false]);

      // The wait restarted: the next chapter waits, and nothing is written.
      expect(await unlock(reader, bookId, nth(chapters, 2).id, 'wait_free')).toEqual({ outcome: 'waiting' });
      expect((await read(reader, bookId, 3)).json().code).toBe(999);
      // Unlocking the same chapter again answers what is held and does not touch the wait.
      expect(await unlock(reader, bookId, nth(chapters, 1).id, 'wait_free')).toMatchObject({
        outcome: 'already',
      });
    });

    it('is ready when the wait ends at the moment of the request', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 1 });
      const reader = await registerVisitor(t);
      await unlock(reader, bookId, nth(chapters, 0).id, 'wait_free');
      expect(await unlock(reader, bookId, nth(chapters, 1).id, 'wait_free')).toEqual({ outcome: 'waiting' });
      // The wait ends exactly now (the transaction's time): ready.
      await t.db.execute(
        sql`update unlock_wait_clocks set ready_at = now() where user_id = ${reader.userId}::int`,
      );
      expect(await unlock(reader, bookId, nth(chapters, 1).id, 'wait_free')).toMatchObject({
        outcome: 'unlocked',
      });
    });

    it('refuses books without it and early-access chapters, changing nothing', async () => {
      const plain = await newBook(t.db, { prices: [10], vipFree: false });
      const early = await newBook(t.db, { prices: [10, 10, 10], vipFree: false });
      await setRules(t.db, early.bookId, { waitMinutes: 60, earlyAccessChapters: 2 });
      const reader = await registerVisitor(t);
      expect(await unlock(reader, plain.bookId, nth(plain.chapters).id, 'wait_free')).toEqual({
        outcome: 'no_wait_free',
      });
      expect(await unlock(reader, early.bookId, nth(early.chapters, 2).id, 'wait_free')).toEqual({
        outcome: 'early_access',
      });
      expect(await unlock(reader, early.bookId, nth(early.chapters, 1).id, 'wait_free')).toEqual({
        outcome: 'early_access',
      });
      const clocks = rowsOf(
        await t.db.execute(sql`select 1 from unlock_wait_clocks where user_id = ${reader.userId}::int`),
      );
      expect(clocks).toEqual([]);
      // The first chapter is not early access.
      expect(await unlock(reader, early.bookId, nth(early.chapters, 0).id, 'wait_free')).toMatchObject({
        outcome: 'unlocked',
      });
    });

    it('reads as locked once the rental has ended, even with the chapter open, and unlocks again in place', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 1 });
      const reader = await registerVisitor(t);
      await unlock(reader, bookId, nth(chapters).id, 'wait_free');
      expect((await read(reader, bookId, 1)).json().code).toBe(200);
      await t.db.execute(
        sql`update chapter_unlocks set ends_at = now() where id = ${unlockId(reader.userId, nth(chapters).id)}`,
      );
      expect((await read(reader, bookId, 1)).json().code).toBe(999);
      expect((await list(reader, bookId)).map((c) => c.alreadyBuy)).toEqual([false]);
      await t.db.execute(
        sql`update unlock_wait_clocks set ready_at = now() where user_id = ${reader.userId}::int`,
      );
      expect(await unlock(reader, bookId, nth(chapters).id, 'wait_free')).toMatchObject({
        outcome: 'unlocked',
      });
      expect((await read(reader, bookId, 1)).json().code).toBe(200);
    });
  });

  describe('tickets', () => {
    it('spends the soonest-expiring usable ticket in scope, once per chapter', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10], vipFree: false });
      const other = await newBook(t.db, { prices: [10], vipFree: false });
      const reader = await registerVisitor(t);
      const later = await grantTicket(t.db, reader.userId, { expiresIn: '3 days' });
      const otherBook = await grantTicket(t.db, reader.userId, {
        expiresIn: '1 hour',
        scope: [other.bookId],
      });
      const sooner = await grantTicket(t.db, reader.userId, {
        expiresIn: '2 days',
        scope: [bookId],
        rentalHours: 48,
      });

      expect(await unlock(reader, bookId, nth(chapters, 0).id, 'ticket')).toMatchObject({
        outcome: 'unlocked',
        source: 'ticket',
      });
      const spent = rowsOf<{ id: number }>(
        await t.db.execute(
          sql`select id from reading_tickets where user_id = ${reader.userId}::int and spent_at is not null`,
        ),
      );
      expect(spent.map((r) => r.id)).toEqual([sooner]);
      // Again on the same chapter: held, nothing spent.
      expect(await unlock(reader, bookId, nth(chapters, 0).id, 'ticket')).toMatchObject({
        outcome: 'already',
      });
      // The permanent one next; then the only one left is for another book.
      const second = await unlock(reader, bookId, nth(chapters, 1).id, 'ticket');
      expect(second).toMatchObject({ outcome: 'unlocked', endsAt: null });
      expect(later).toBeGreaterThan(0);
      expect(otherBook).toBeGreaterThan(0);
      expect((await read(reader, bookId, 2)).json().code).toBe(200);
    });

    it('never spends a ticket at or after its expiry, nor a read ticket on early access', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10], vipFree: false });
      await setRules(t.db, bookId, { earlyAccessChapters: 1 });
      const reader = await registerVisitor(t);
      // Expiring at the moment of spending (the transaction's now): not usable.
      await grantTicket(t.db, reader.userId, { expiresIn: '0 seconds' });
      expect(await unlock(reader, bookId, nth(chapters, 0).id, 'ticket')).toEqual({ outcome: 'no_ticket' });
      await grantTicket(t.db, reader.userId, { expiresIn: '1 day' });
      expect(await unlock(reader, bookId, nth(chapters, 1).id, 'ticket')).toEqual({ outcome: 'no_ticket' });
      await grantTicket(t.db, reader.userId, { expiresIn: '2 days', kind: 'presale' });
      expect(await unlock(reader, bookId, nth(chapters, 1).id, 'ticket')).toMatchObject({
        outcome: 'unlocked',
      });
      // The database refuses a spend after expiry whatever the code does.
      await expect(
        t.db.execute(sql`update reading_tickets set spent_at = expires_at, spent_chapter_id = ${nth(chapters).id}::int
                         where user_id = ${reader.userId}::int and spent_at is null`),
      ).rejects.toThrow();
    });
  });

  describe('coins and races', () => {
    it('charges coins exactly as a purchase, and refuses a short balance changing nothing', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [15, 15], vipFree: false });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 20);
      expect(await unlock(reader, bookId, nth(chapters, 0).id, 'coins')).toMatchObject({
        outcome: 'unlocked',
        source: 'bought',
      });
      expect(await unlock(reader, bookId, nth(chapters, 1).id, 'coins')).toEqual({ outcome: 'short' });
      const balance = rowsOf<{ balance: number }>(
        await t.db.execute(
          sql`select balance::int from ledger_accounts where user_id = ${reader.userId}::int`,
        ),
      );
      expect(balance).toEqual([{ balance: 5 }]);
    });

    it('50 parallel unlocks of one chapter by different sources make one unlock and one spend', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 1000);
      for (let i = 0; i < 5; i++) await grantTicket(t.db, reader.userId, { expiresIn: `${i + 1} days` });
      const sources: UnlockBy[] = ['coins', 'wait_free', 'ticket'];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          unlock(reader, bookId, nth(chapters).id, sources[i % 3] ?? 'coins'),
        ),
      );
      expect(results.filter((r) => r.outcome === 'unlocked')).toHaveLength(1);
      expect(results.filter((r) => r.outcome !== 'unlocked').every((r) => r.outcome === 'already')).toBe(
        true,
      );
      const [spends] = rowsOf<{ coins: number; tickets: number; unlocks: number; clocks: number }>(
        await t.db.execute(sql`select
          (select count(*)::int from ledger_transfers where user_id = ${reader.userId}::int and kind = 'purchase') as coins,
          (select count(*)::int from reading_tickets where user_id = ${reader.userId}::int and spent_at is not null) as tickets,
          (select count(*)::int from chapter_unlocks where user_id = ${reader.userId}::int) as unlocks,
          (select count(*)::int from unlock_wait_clocks where user_id = ${reader.userId}::int) as clocks`),
      );
      expect((spends?.coins ?? 0) + (spends?.tickets ?? 0) + (spends?.clocks ?? 0)).toBe(1);
      expect(spends?.unlocks).toBe(spends?.coins ? 0 : 1);
    });
  });
  // The unlock is one statement that takes the reader's lock first: its moment (now()) is when it started, before any
  // wait for the lock, and every check and every time it writes reads that one moment. PGlite is one connection:
  // nothing can hold the lock while another request waits, so these run on PostgreSQL.
  describe.skipIf(dbKind !== 'postgres')('a request waiting for the reader’s lock', () => {
    /** Runs `during` while another connection holds the reader's unlock lock for `ms`, then lets it go. */
    async function underHeldLock<T>(userId: number, ms: number, during: () => Promise<T>): Promise<T> {
      const pool = poolOf(t.db);
      if (!pool) throw new Error('no pool');
      const holder = await pool.connect();
      try {
        await holder.query('begin');
        await holder.query(`select pg_advisory_xact_lock(hashtext('unlock'), $1::int)`, [userId]);
        const pending = during();
        await new Promise((resolve) => setTimeout(resolve, ms));
        await holder.query('commit');
        return await pending;
      } finally {
        holder.release();
      }
    }

    it('spends a ticket usable when the request came, though it expired while the request waited', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      const reader = await registerVisitor(t);
      const ticketId = await grantTicket(t.db, reader.userId, { expiresIn: '2 seconds', rentalHours: 1 });
      const done = await underHeldLock(reader.userId, 3000, () =>
        unlock(reader, bookId, nth(chapters).id, 'ticket'),
      );
      expect(done).toMatchObject({ outcome: 'unlocked', source: 'ticket' });
      const [spent] = rowsOf<{ before_expiry: boolean; ended_before_now: boolean }>(
        await t.db.execute(sql`
          select t.spent_at < t.expires_at as before_expiry, t.expires_at < now() as ended_before_now
          from reading_tickets t where t.id = ${ticketId}::int`),
      );
      // Spent at the request's moment, before its expiry (the CHECK holds), though it has ended by now.
      expect(spent).toEqual({ before_expiry: true, ended_before_now: true });
    });

    it('a wait that ends while the request waits is not over for it: waiting, nothing written; the next one unlocks', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60 });
      const reader = await registerVisitor(t);
      await t.db.execute(sql`
        insert into unlock_wait_clocks (user_id, book_id, ready_at)
        values (${reader.userId}::int, ${bookId}::int, now() + interval '2 seconds')`);
      const done = await underHeldLock(reader.userId, 3000, () =>
        unlock(reader, bookId, nth(chapters).id, 'wait_free'),
      );
      expect(done).toEqual({ outcome: 'waiting' });
      const stored = rowsOf(
        await t.db.execute(sql`select 1 from chapter_unlocks where user_id = ${reader.userId}::int`),
      );
      expect(stored).toEqual([]);
      expect(await unlock(reader, bookId, nth(chapters).id, 'wait_free')).toMatchObject({
        outcome: 'unlocked',
        source: 'wait_free',
      });
    });

    it('a rental that ends while the request waits still holds for it: already, nothing spent', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60 });
      const reader = await registerVisitor(t);
      await grantTicket(t.db, reader.userId, { expiresIn: '1 day' });
      await unlock(reader, bookId, nth(chapters).id, 'wait_free');
      await t.db.execute(sql`
        update chapter_unlocks set ends_at = now() + interval '2 seconds'
        where id = ${unlockId(reader.userId, nth(chapters).id)}`);
      const done = await underHeldLock(reader.userId, 3000, () =>
        unlock(reader, bookId, nth(chapters).id, 'ticket'),
      );
      expect(done).toMatchObject({ outcome: 'already', source: 'wait_free' });
      const spent = rowsOf(
        await t.db.execute(
          sql`select 1 from reading_tickets where user_id = ${reader.userId}::int and spent_at is not null`,
        ),
      );
      expect(spent).toEqual([]);
      // Asked again now, the rental has ended: the ticket unlocks it in place.
      expect(await unlock(reader, bookId, nth(chapters).id, 'ticket')).toMatchObject({
        outcome: 'unlocked',
        source: 'ticket',
      });
    });
  });

  describe('the calls', () => {
    const post = (reader: TestVisitor | null, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/book/chapter/unlock',
        headers: reader ? { cookie: reader.cookie } : {},
        payload: body as object,
      });

    it('unlocks wait-free, then refuses with 999, a Chinese reason and the options, changing nothing', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60, rentalHours: 24 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 3);
      await grantTicket(t.db, reader.userId, { expiresIn: '1 day', scope: [bookId + 100000] });

      const first = (await post(reader, { bookId, chapterId: nth(chapters, 1).id, by: 'wait_free' })).json();
      expect(first).toMatchObject({
        result: true,
        code: 200,
        data: { chapterId: nth(chapters, 1).id, source: 'wait_free', endsAt: expect.any(Number) },
      });
      const refused = (
        await post(reader, { bookId, chapterId: nth(chapters, 2).id, by: 'wait_free' })
      ).json();
      expect(refused).toMatchObject({ result: false, code: 999, msg: '等待时间未到，请稍后再来免费解锁' });
      expect(refused.data).toEqual({
        coins: { price: 10, balance: 3 },
        waitFree: { readyAt: expect.any(Number), rentalHours: 24 },
        tickets: { usable: 0, nextExpiresAt: null },
        bundle: null,
        earlyAccess: false,
      });
      expect(refused.data.waitFree.readyAt - Date.now()).toBeGreaterThan(59 * 60_000);
      for (const by of ['ticket', 'coins', 'bundle']) {
        expect((await post(reader, { bookId, chapterId: nth(chapters, 2).id, by })).json().code).toBe(999);
      }
      expect((await read(reader, bookId, 3)).json().code).toBe(999);
      // A free chapter needs nothing.
      expect(
        (await post(reader, { bookId, chapterId: nth(chapters, 0).id, by: 'ticket' })).json().data,
      ).toEqual({
        chapterId: nth(chapters, 0).id,
        source: 'free',
        endsAt: null,
      });
    });

    it('refuses bad input and no session with the envelope', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      const reader = await registerVisitor(t);
      const bad = await post(reader, { bookId, chapterId: nth(chapters).id, by: 'magic' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ result: false, code: 400 });
      const anonymous = await post(null, { bookId, chapterId: nth(chapters).id, by: 'coins' });
      expect(anonymous.statusCode).toBe(401);
      const elsewhere = await post(reader, {
        bookId: bookId + 100000,
        chapterId: nth(chapters).id,
        by: 'coins',
      });
      expect(elsewhere.json()).toMatchObject({ result: false, code: 404 });
    });

    it('lists the tickets usable first, soonest-expiring first, with spent and expired ones', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      const reader = await registerVisitor(t);
      const expired = await grantTicket(t.db, reader.userId, { expiresIn: '-1 hour' });
      const later = await grantTicket(t.db, reader.userId, {
        expiresIn: '5 days',
        rentalHours: 48,
        scope: [bookId],
      });
      const spent = await grantTicket(t.db, reader.userId, { expiresIn: '1 day' });
      const sooner = await grantTicket(t.db, reader.userId, { expiresIn: '2 days', kind: 'presale' });
      await unlock(reader, bookId, nth(chapters).id, 'ticket');
      const res = (
        await t.app.inject({ url: '/api/user/tickets', headers: { cookie: reader.cookie } })
      ).json();
      expect(res.code).toBe(200);
      const list = res.data.list as { id: number; state: string; kind: string; rentalHours: number | null }[];
      expect(list.map((x) => [x.id, x.state])).toEqual([
        [sooner, 'usable'],
        [later, 'usable'],
        [expired, 'expired'],
        [spent, 'spent'],
      ]);
      expect(list[1]).toMatchObject({ kind: 'read', rentalHours: 48, scope: [bookId] });
      expect((await t.app.inject({ url: '/api/user/tickets' })).statusCode).toBe(401);
    });
  });
});
