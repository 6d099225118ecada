import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import type { Database } from '../../db/client.ts';
import { createUnlocksRepository, type UnlockBy } from '../wallet/unlocks.repository.ts';
import { expectUnlockInvariants } from '../wallet/unlocks-test-kit.ts';
import { giveCoins, makeVip, newBook, nth } from '../wallet/wallet-test-kit.ts';

async function setRules(
  db: Database,
  bookId: number,
  r: { waitMinutes: number | null; earlyAccessChapters: number },
) {
  await db.execute(sql`
    insert into book_unlock_rules (book_id, wait_minutes, rental_hours, early_access_chapters)
    values (${bookId}::int, ${r.waitMinutes}::int, 72, ${r.earlyAccessChapters}::int)`);
}

async function grantTicket(db: Database, userId: number, kind: 'read' | 'presale', expiresIn = '7 days') {
  await db.execute(sql`
    insert into reading_tickets (grant_id, user_id, kind, source, expires_at)
    values (${`test:${randomUUID()}`}, ${userId}::int, ${kind}, 'grant', now() + ${expiresIn}::interval)`);
}

interface Item {
  chapterId: number;
  number: number;
  alreadyBuy: boolean;
  unlockSource?: string;
  unlockEndsAt?: number | null;
  earlyAccess?: boolean;
  waitFreeReadyAt?: number;
  ticketable?: boolean;
}

const HOUR = 3_600_000;

describeDb('the reader sees the unlock ledger: read_chapter and the chapter list', () => {
  let t: TestApp;
  let repo: ReturnType<typeof createUnlocksRepository>;
  const read = async (reader: TestVisitor | null, bookId: number, number: number) =>
    (
      await t.app.inject({
        url: `/api/book/read_chapter?bookId=${bookId}&number=${number}`,
        headers: reader ? { cookie: reader.cookie } : {},
      })
    ).json();
  const list = async (reader: TestVisitor | null, bookId: number) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `/api/book/chapter/list?bookId=${bookId}`,
        headers: reader ? { cookie: reader.cookie } : {},
      })
    ).json().data as Item[];
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

  describe('read_chapter', () => {
    it('says what opens a readable chapter: free, bought, a wait-for-free rental, VIP', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10], vipFree: true });
      await setRules(t.db, bookId, { waitMinutes: 60, earlyAccessChapters: 0 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 10);

      expect((await read(reader, bookId, 1)).data.unlock).toEqual({ source: 'free', endsAt: null });
      await unlock(reader, bookId, nth(chapters, 1).id, 'coins');
      expect((await read(reader, bookId, 2)).data.unlock).toEqual({ source: 'bought', endsAt: null });
      await unlock(reader, bookId, nth(chapters, 2).id, 'wait_free');
      const rented = (await read(reader, bookId, 3)).data;
      expect(rented.unlock.source).toBe('wait_free');
      expect(rented.unlock.endsAt - Date.now()).toBeGreaterThan(71.9 * HOUR);
      expect(rented.bookPics.length).toBeGreaterThan(0);

      const vip = await registerVisitor(t);
      await makeVip(t.db, vip.userId);
      const viaVip = (await read(vip, bookId, 2)).data.unlock;
      expect(viaVip.source).toBe('vip');
      expect(viaVip.endsAt - Date.now()).toBeGreaterThan(29 * 24 * HOUR);
    });

    it('answers a locked chapter with code 999, no pages, and its unlockOptions', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 12, 15], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60, earlyAccessChapters: 1 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 7);
      await grantTicket(t.db, reader.userId, 'read', '2 days');
      await grantTicket(t.db, reader.userId, 'read', '1 day');

      const locked = await read(reader, bookId, 2);
      expect(locked.code).toBe(999);
      expect(locked.data.bookPics).toEqual([]);
      expect(locked.data.unlock).toBeUndefined();
      const options = locked.data.unlockOptions;
      expect(options).toMatchObject({
        coins: { price: 10, balance: 7 },
        waitFree: { rentalHours: 72 },
        tickets: { usable: 2 },
        bundle: null,
        earlyAccess: false,
      });
      expect(options.waitFree.readyAt).toBeLessThanOrEqual(Date.now());
      expect(options.tickets.nextExpiresAt - Date.now()).toBeLessThan(24 * HOUR + 60_000);

      // The wait restarts after a wait-for-free unlock; the early-access chapter offers no wait and no read ticket.
      await unlock(reader, bookId, nth(chapters, 1).id, 'wait_free');
      const waiting = (await read(reader, bookId, 3)).data.unlockOptions;
      expect(waiting.waitFree.readyAt - Date.now()).toBeGreaterThan(59 * 60_000);
      const early = (await read(reader, bookId, 4)).data.unlockOptions;
      expect(early).toMatchObject({ coins: { price: 15 }, waitFree: null, earlyAccess: true });
      expect(early.tickets.usable).toBe(0);
    });

    it('reads a rental that has ended as locked again', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 1, earlyAccessChapters: 0 });
      const reader = await registerVisitor(t);
      await unlock(reader, bookId, nth(chapters, 1).id, 'wait_free');
      expect((await read(reader, bookId, 2)).code).toBe(200);
      await t.db.execute(
        sql`update chapter_unlocks set ends_at = now() - interval '1 second' where user_id = ${reader.userId}::int`,
      );
      const again = await read(reader, bookId, 2);
      expect(again.code).toBe(999);
      expect(again.data.unlockOptions.waitFree).not.toBeNull();
      const item = (await list(reader, bookId)).find((c) => c.number === 2);
      expect(item).toMatchObject({ alreadyBuy: false });
      expect(item?.unlockSource).toBeUndefined();
    });
  });

  describe('the chapter list', () => {
    it('marks bought, rented, early access, wait-for-free and ticket chapters for the reader', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 10, 10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60, earlyAccessChapters: 1 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 10);
      await grantTicket(t.db, reader.userId, 'read');
      await unlock(reader, bookId, nth(chapters, 1).id, 'wait_free');
      await unlock(reader, bookId, nth(chapters, 2).id, 'coins');

      const [free, rented, bought, locked, early] = await list(reader, bookId);
      expect(free).toMatchObject({ alreadyBuy: false });
      expect(free?.waitFreeReadyAt).toBeUndefined();
      expect(rented).toMatchObject({ alreadyBuy: true, unlockSource: 'wait_free' });
      expect((rented?.unlockEndsAt ?? 0) - Date.now()).toBeGreaterThan(71.9 * HOUR);
      expect(bought).toMatchObject({ alreadyBuy: true, unlockSource: 'bought', unlockEndsAt: null });
      expect(bought?.ticketable).toBeUndefined();
      expect(locked).toMatchObject({ alreadyBuy: false, ticketable: true });
      expect((locked?.waitFreeReadyAt ?? 0) - Date.now()).toBeGreaterThan(59 * 60_000);
      expect(early).toMatchObject({ alreadyBuy: false, earlyAccess: true });
      expect(early?.waitFreeReadyAt).toBeUndefined();
      expect(early?.ticketable).toBeUndefined();

      // A presale ticket opens early access; nobody signed in sees the book's marks, not a reader's.
      await grantTicket(t.db, reader.userId, 'presale');
      expect((await list(reader, bookId))[4]).toMatchObject({ earlyAccess: true, ticketable: true });
      const anyone = await list(null, bookId);
      expect(anyone.map((c) => c.alreadyBuy)).toEqual([false, false, false, false, false]);
      expect(anyone[4]).toMatchObject({ earlyAccess: true });
      expect(anyone[1]?.waitFreeReadyAt).toBeLessThanOrEqual(Date.now());
      expect(anyone.some((c) => c.ticketable)).toBe(false);
    });

    it("gives the book detail the book's wait-for-free, and null for a book without it", async () => {
      const waits = await newBook(t.db, { prices: [0, 10] });
      await setRules(t.db, waits.bookId, { waitMinutes: 1440, earlyAccessChapters: 0 });
      const plain = await newBook(t.db, { prices: [0, 10] });
      const detail = async (bookId: number) =>
        (await t.app.inject({ url: `/api/book/detail/${bookId}` })).json().data;
      expect((await detail(waits.bookId)).waitFree).toEqual({ waitMinutes: 1440, rentalHours: 72 });
      expect((await detail(plain.bookId)).waitFree).toBeNull();
    });
  });
});
