// The unlock ledger's bundle ("buy all remaining chapters"), a new reader's first-day wait-free extras, and the
// chapter buy under the unlock path's per-reader lock.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';
import { applyUrl, demo, injectSend } from '../payments/payments.test-support.ts';
import { bundlePrice, createUnlocksRepository, type UnlockBy, unlockId } from './unlocks.repository.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { giveCoins, holdings, newBook, nth } from './wallet-test-kit.ts';

async function setRules(
  db: Database,
  bookId: number,
  r: {
    waitMinutes?: number | null;
    bundlePercent?: number;
    earlyAccessChapters?: number;
    newReaderExtra?: number;
  },
) {
  await db.execute(sql`
    insert into book_unlock_rules (book_id, wait_minutes, early_access_chapters, bundle_percent, new_reader_extra)
    values (${bookId}::int, ${r.waitMinutes ?? null}::int, ${r.earlyAccessChapters ?? 0}::int,
            ${r.bundlePercent ?? 0}::int, ${r.newReaderExtra ?? 0}::int)`);
}

async function grantTicket(db: Database, userId: number, expiresIn = '1 day') {
  await db.execute(sql`
    insert into reading_tickets (grant_id, user_id, kind, source, expires_at)
    values (${`test:${randomUUID()}`}, ${userId}::int, 'read', 'grant', now() + ${expiresIn}::interval)`);
}

const query = async <T>(db: Database, q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q));

describeDb('the unlock ledger: bundles, first-day extras, and buying under the unlock lock', () => {
  let t: TestApp;
  let repo: ReturnType<typeof createUnlocksRepository>;
  const post = (reader: TestVisitor, body: { bookId: number; chapterId: number; by: UnlockBy | 'bundle' }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/book/chapter/unlock',
      headers: { cookie: reader.cookie },
      payload: body,
    });
  const buy = (reader: TestVisitor, chapterId: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${chapterId}`,
      headers: { cookie: reader.cookie },
    });
  const read = (reader: TestVisitor, bookId: number, number: number) =>
    t.app.inject({
      url: `/api/book/read_chapter?bookId=${bookId}&number=${number}`,
      headers: { cookie: reader.cookie },
    });
  const balance = async (userId: number) => (await holdings(t.db, userId)).balance;

  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    repo = createUnlocksRepository(t.db);
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
    await expectUnlockInvariants(t.db);
  });
  afterAll(() => t?.close());

  describe('the bundle', () => {
    it('prices the rest less the percent, rounded down, with shares summing to it', () => {
      expect(bundlePrice([10, 15, 15, 20], 15)).toEqual({
        full: 60,
        total: 51,
        saves: 9,
        shares: [9, 13, 12, 17],
      });
      expect(bundlePrice([3], 90)).toEqual({ full: 3, total: 1, saves: 2, shares: [1] });
    });

    it('sells every remaining priced chapter, early access included, in one transfer, shown with what it saves', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 15, 15, 20], vipFree: false });
      await setRules(t.db, bookId, { bundlePercent: 15, earlyAccessChapters: 1 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      expect((await repo.options(reader.userId, nth(chapters, 1).id))?.bundle).toEqual({
        price: 51,
        chapters: 4,
        saves: 9,
      });

      const res = (await post(reader, { bookId, chapterId: nth(chapters, 2).id, by: 'bundle' })).json();
      expect(res).toMatchObject({ result: true, code: 200 });
      expect(res.data).toEqual({
        list: chapters.slice(1).map((c) => ({ chapterId: c.id, source: 'bought', endsAt: null })),
        price: 51,
        saves: 9,
      });
      expect(await balance(reader.userId)).toBe(49);
      const transfers = await query<{ id: string; amount: number }>(
        t.db,
        sql`select id, amount from ledger_transfers where user_id = ${reader.userId}::int and kind = 'purchase'`,
      );
      expect(transfers).toEqual([
        { id: `bundle:${reader.userId}:${bookId}:${nth(chapters, 4).id}`, amount: 51 },
      ]);
      const shares = await query<{ price: number }>(
        t.db,
        sql`select price from chapter_purchases where user_id = ${reader.userId}::int order by chapter_id`,
      );
      expect(shares.map((s) => s.price)).toEqual([9, 13, 12, 17]);
      expect((await read(reader, bookId, 5)).json().code).toBe(200);
      // The consumption records say what it was.
      const records = (
        await t.app.inject({ url: '/api/user/consumption?page=1', headers: { cookie: reader.cookie } })
      ).json();
      expect(JSON.stringify(records.data)).toContain('打包购买《钱包测试之书》剩余章节');

      // Nothing remains: refused, changing nothing.
      const again = (await post(reader, { bookId, chapterId: nth(chapters, 2).id, by: 'bundle' })).json();
      expect(again).toMatchObject({ result: false, code: 999, msg: '本书已没有可打包购买的章节' });
      expect(await balance(reader.userId)).toBe(49);
    });

    it('after chapters bought or rented, is the rest; a rented chapter joins a later bundle once its rental ends', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10, 10, 10], vipFree: false });
      await setRules(t.db, bookId, { bundlePercent: 20, waitMinutes: 60 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      await repo.unlock({ userId: reader.userId, bookId, chapterId: nth(chapters, 0).id, by: 'coins' });
      await repo.unlock({ userId: reader.userId, bookId, chapterId: nth(chapters, 1).id, by: 'wait_free' });
      expect((await repo.options(reader.userId, nth(chapters, 2).id))?.bundle).toEqual({
        price: 16,
        chapters: 2,
        saves: 4,
      });
      const first = await repo.bundle({ userId: reader.userId, bookId, chapterId: nth(chapters, 2).id });
      expect(first).toEqual({
        outcome: 'bought',
        chapterIds: [nth(chapters, 2).id, nth(chapters, 3).id],
        price: 16,
        saves: 4,
      });
      expect(await balance(reader.userId)).toBe(74);

      await t.db.execute(
        sql`update chapter_unlocks set ends_at = now() where id = ${unlockId(reader.userId, nth(chapters, 1).id)}`,
      );
      expect((await repo.options(reader.userId, nth(chapters, 1).id))?.bundle).toEqual({
        price: 8,
        chapters: 1,
        saves: 2,
      });
      expect(
        await repo.bundle({ userId: reader.userId, bookId, chapterId: nth(chapters, 1).id }),
      ).toMatchObject({
        outcome: 'bought',
        chapterIds: [nth(chapters, 1).id],
      });
      expect(await balance(reader.userId)).toBe(66);
      expect((await holdings(t.db, reader.userId)).purchases).toBe(3);
    });

    it('under a live discount starts from the discounted chapter prices: shown and charged alike', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 20, 30], vipFree: false });
      await setRules(t.db, bookId, { bundlePercent: 20 });
      // Half off for every reader, and nothing more for branch 3601's.
      await t.db.execute(sql`
        insert into unlock_campaigns (kind, title, book_id, discount_percent, starts_at, ends_at)
        values ('discount', '五折', ${bookId}::int, 50, now() - interval '1 hour', now() + interval '1 day')`);
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      // 5 + 10 + 15 = 30 at the prices charged now, less 20%: 24, saving 6 against buying them one by one.
      const shown = (await read(reader, bookId, 2)).json().data.unlockOptions;
      expect(shown).toMatchObject({ coins: { price: 5 }, bundle: { price: 24, chapters: 3, saves: 6 } });
      const res = (await post(reader, { bookId, chapterId: nth(chapters, 1).id, by: 'bundle' })).json();
      expect(res).toMatchObject({ result: true, data: { price: 24, saves: 6 } });
      expect(await balance(reader.userId)).toBe(76);
      const [transfer] = await query<{ amount: number }>(
        t.db,
        sql`select amount from ledger_transfers where user_id = ${reader.userId}::int and kind = 'purchase'`,
      );
      expect(transfer?.amount).toBe(24);
      const shares = await query<{ price: number }>(
        t.db,
        sql`select price from chapter_purchases where user_id = ${reader.userId}::int order by chapter_id`,
      );
      expect(shares.map((s) => s.price)).toEqual([4, 8, 12]);

      // A reader outside the campaign's branch pays from the list prices: 60 less 20%.
      await t.db.execute(sql`update unlock_campaigns set branch_id = 3601 where book_id = ${bookId}::int`);
      const other = await registerVisitor(t);
      await giveCoins(t.db, other.userId, 100);
      expect((await repo.options(other.userId, nth(chapters, 1).id))?.bundle).toEqual({
        price: 48,
        chapters: 3,
        saves: 12,
      });
      expect(
        (await post(other, { bookId, chapterId: nth(chapters, 1).id, by: 'bundle' })).json(),
      ).toMatchObject({
        result: true,
        data: { price: 48 },
      });
      expect(await balance(other.userId)).toBe(52);
    });

    it('leaves out chapters limited-time free for the reader now; once the campaign ends they sell again', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10, 10, 10], vipFree: false });
      await setRules(t.db, bookId, { bundlePercent: 20 });
      // Chapters 2 and 3 free for everyone for a day.
      await t.db.execute(sql`
        insert into unlock_campaigns (kind, title, book_id, chapter_ids, starts_at, ends_at)
        values ('limited_free', '限免', ${bookId}::int, ${`{${nth(chapters, 1).id},${nth(chapters, 2).id}}`}::int[],
                now() - interval '1 hour', now() + interval '1 day')`);
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      // Chapters 1 and 4 only: 20 less 20%.
      expect((await repo.options(reader.userId, nth(chapters, 0).id))?.bundle).toEqual({
        price: 16,
        chapters: 2,
        saves: 4,
      });
      const res = (await post(reader, { bookId, chapterId: nth(chapters, 0).id, by: 'bundle' })).json();
      expect(res).toMatchObject({ result: true, data: { price: 16, saves: 4 } });
      expect(res.data.list.map((c: { chapterId: number }) => c.chapterId)).toEqual([
        nth(chapters, 0).id,
        nth(chapters, 3).id,
      ]);
      expect(await balance(reader.userId)).toBe(84);
      expect((await holdings(t.db, reader.userId)).claims).toBe(2);
      // The free ones read now, and nothing is left to bundle while they are free.
      expect((await read(reader, bookId, 2)).json().code).toBe(200);
      const none = (await post(reader, { bookId, chapterId: nth(chapters, 0).id, by: 'bundle' })).json();
      expect(none).toMatchObject({ result: false, code: 999, msg: '本书已没有可打包购买的章节' });
      expect(await balance(reader.userId)).toBe(84);

      // The campaign ends: both are buyable again, in a bundle too.
      await t.db.execute(
        sql`update unlock_campaigns set ends_at = now(), starts_at = least(starts_at, now()) where book_id = ${bookId}::int`,
      );
      expect((await read(reader, bookId, 2)).json().code).toBe(999);
      expect(
        await repo.bundle({ userId: reader.userId, bookId, chapterId: nth(chapters, 1).id }),
      ).toMatchObject({
        outcome: 'bought',
        chapterIds: [nth(chapters, 1).id, nth(chapters, 2).id],
        price: 16,
      });
      expect(await balance(reader.userId)).toBe(68);
    });

    it('refuses with 999, the reason and the options when the book has none or the coins are short', async () => {
      const plain = await newBook(t.db, { prices: [10, 10], vipFree: false });
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10], vipFree: false });
      await setRules(t.db, bookId, { bundlePercent: 10 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 17);
      const none = (
        await post(reader, { bookId: plain.bookId, chapterId: nth(plain.chapters).id, by: 'bundle' })
      ).json();
      expect(none).toMatchObject({
        result: false,
        code: 999,
        msg: '本书暂不支持打包购买',
        data: { bundle: null },
      });
      const short = (await post(reader, { bookId, chapterId: nth(chapters).id, by: 'bundle' })).json();
      expect(short).toMatchObject({
        result: false,
        code: 999,
        msg: '阅币不足，请先充值',
        data: { coins: { price: 10, balance: 17 }, bundle: { price: 18, chapters: 2, saves: 2 } },
      });
      expect(await holdings(t.db, reader.userId)).toMatchObject({ balance: 17, claims: 0, purchases: 0 });
      const elsewhere = await post(reader, {
        bookId: plain.bookId,
        chapterId: nth(chapters).id,
        by: 'bundle',
      });
      expect(elsewhere.json()).toMatchObject({ result: false, code: 404 });
    });

    it('parallel bundles, buys and single unlocks buy nothing twice, and the coins are exact', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 20, 30, 40, 50], vipFree: false });
      await setRules(t.db, bookId, { bundlePercent: 10, waitMinutes: 60 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 1000);
      await grantTicket(t.db, reader.userId);
      const ids = chapters.map((c) => c.id);
      const calls = [
        ...ids.map(() => repo.bundle({ userId: reader.userId, bookId, chapterId: nth(ids) })),
        ...ids.map((chapterId) => buy(reader, chapterId)),
        ...ids.map((chapterId) => repo.unlock({ userId: reader.userId, bookId, chapterId, by: 'ticket' })),
        ...ids.map((chapterId) => repo.unlock({ userId: reader.userId, bookId, chapterId, by: 'wait_free' })),
        ...ids.map((chapterId) => repo.unlock({ userId: reader.userId, bookId, chapterId, by: 'coins' })),
      ];
      await Promise.all(calls);
      const held = await query<{ chapter_id: number; n: number }>(
        t.db,
        sql`select chapter_id, count(*)::int as n from (
              select chapter_id from chapter_purchases where user_id = ${reader.userId}::int
              union all
              select chapter_id from chapter_unlocks where user_id = ${reader.userId}::int
                and (ends_at is null or ends_at > now())) h
            group by chapter_id order by chapter_id`,
      );
      expect(held).toEqual(ids.map((id) => ({ chapter_id: id, n: 1 })));
      const bundles = await query<{ id: string }>(
        t.db,
        sql`select id from ledger_transfers where user_id = ${reader.userId}::int and id like 'bundle:%'`,
      );
      expect(bundles.length).toBeLessThanOrEqual(1);
      const { spent, balance: left } = await holdings(t.db, reader.userId);
      expect(left).toBe(1000 - spent);
    });

    it('a refund of the order that paid for a bundle takes back only the unspent coins; the chapters stay', async () => {
      const { admin } = await consoleOperators(t, ['finance']);
      const reader = await registerVisitor(t);
      const url = applyUrl({
        ...demo.coin600,
        payChannel: 'unionpay',
        rechargerAmount: 588,
        vueReturnUrl: '/home',
      });
      const apply = await t.app.inject({ url, headers: { cookie: reader.cookie } });
      expect(apply.statusCode, apply.body).toBe(302);
      await t.app.inject({
        method: 'POST',
        url: `${new URL(String(apply.headers.location), 'http://localhost').pathname}/confirm`,
      });
      await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
      const [order] = await query<{ order_no: string }>(
        t.db,
        sql`select order_no from pay_orders where user_id = ${reader.userId}::int and status = 'paid'`,
      );
      const paid = await balance(reader.userId);
      expect(paid).toBeGreaterThanOrEqual(600);

      const { bookId, chapters } = await newBook(t.db, { prices: [100, 100, 100, 100], vipFree: false });
      await setRules(t.db, bookId, { bundlePercent: 25 });
      expect(await repo.bundle({ userId: reader.userId, bookId, chapterId: nth(chapters).id })).toMatchObject(
        {
          outcome: 'bought',
          price: 300,
        },
      );
      const refund = await admin('finance', 'POST', `/api/admin/orders/${order?.order_no}/refunds`, {
        amount: 588,
        reason: '读者申请退款',
        requestId: randomUUID(),
        coins: 'take',
      });
      expect(refund.json(), refund.body).toMatchObject({
        result: true,
        data: { refund: { state: 'success' } },
      });
      // The coins spent on the bundle are not taken back; what was left of the order's is.
      expect(refund.json().data.refund.coinsTaken).toBe(Math.min(paid - 300, 600));
      expect(await holdings(t.db, reader.userId)).toMatchObject({ claims: 4, purchases: 1, spent: 300 });
      expect((await read(reader, bookId, 4)).json().code).toBe(200);
    });
  });

  describe('a new reader’s first day', () => {
    const chinaMidnight = sql`(date_trunc('day', now() at time zone 'Asia/Shanghai') at time zone 'Asia/Shanghai')`;

    it('skips the wait for N extra wait-free unlocks on the China day the account was made, not a moment before', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10, 10, 10, 10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 24 * 60, newReaderExtra: 2 });
      const fresh = await registerVisitor(t);
      const yesterday = await registerVisitor(t);
      // Made at China midnight today, and one microsecond before it.
      await t.db.execute(sql`update users set created_at = ${chinaMidnight} where id = ${fresh.userId}::int`);
      await t.db.execute(
        sql`update users set created_at = ${chinaMidnight} - interval '1 microsecond' where id = ${yesterday.userId}::int`,
      );
      const unlock = (reader: TestVisitor, i: number) =>
        repo.unlock({ userId: reader.userId, bookId, chapterId: nth(chapters, i).id, by: 'wait_free' });

      for (const i of [0, 1, 2]) {
        expect(await unlock(fresh, i)).toMatchObject({ outcome: 'unlocked', source: 'wait_free' });
        expect(
          (await repo.options(fresh.userId, nth(chapters, i + 1).id))?.waitFree?.readyAt,
        ).toBeLessThanOrEqual(i < 2 ? Date.now() : Number.POSITIVE_INFINITY);
      }
      expect(await unlock(fresh, 3)).toEqual({ outcome: 'waiting' });
      const options = await repo.options(fresh.userId, nth(chapters, 3).id);
      expect(options?.waitFree?.readyAt ?? 0).toBeGreaterThan(Date.now() + 23 * 3_600_000);

      expect(await unlock(yesterday, 0)).toMatchObject({ outcome: 'unlocked' });
      expect(await unlock(yesterday, 1)).toEqual({ outcome: 'waiting' });
    });
  });

  describe('buying under the unlock lock', () => {
    it('buying a chapter held by a live rental charges nothing; once the rental ends it sells', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 30);
      await repo.unlock({ userId: reader.userId, bookId, chapterId: nth(chapters).id, by: 'wait_free' });
      expect((await buy(reader, nth(chapters).id)).json().data).toMatchObject({
        charged: 0,
        avaliableAmount: 30,
      });
      await t.db.execute(
        sql`update chapter_unlocks set ends_at = now() where id = ${unlockId(reader.userId, nth(chapters).id)}`,
      );
      expect((await buy(reader, nth(chapters).id)).json().data).toMatchObject({
        charged: 10,
        avaliableAmount: 20,
      });
    });

    it('a buy, a ticket and a wait-free unlock of one chapter at once: one holding, one spend', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [10, 10, 10, 10], vipFree: false });
      await setRules(t.db, bookId, { waitMinutes: 60 });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 1000);
      for (let i = 0; i < 8; i++) await grantTicket(t.db, reader.userId, `${i + 1} days`);
      await Promise.all(
        chapters.flatMap((c) => [
          buy(reader, c.id),
          repo.unlock({ userId: reader.userId, bookId, chapterId: c.id, by: 'ticket' }),
          repo.unlock({ userId: reader.userId, bookId, chapterId: c.id, by: 'wait_free' }),
          buy(reader, c.id),
          repo.unlock({ userId: reader.userId, bookId, chapterId: c.id, by: 'ticket' }),
        ]),
      );
      const spends = await query<{ chapter_id: number; coins: number; tickets: number; rentals: number }>(
        t.db,
        sql`select c.id as chapter_id,
              (select count(*)::int from chapter_purchases p where p.user_id = ${reader.userId}::int and p.chapter_id = c.id) as coins,
              (select count(*)::int from reading_tickets r where r.user_id = ${reader.userId}::int and r.spent_chapter_id = c.id) as tickets,
              (select count(*)::int from chapter_unlocks u where u.user_id = ${reader.userId}::int and u.chapter_id = c.id
                 and u.source = 'wait_free') as rentals
            from chapters c where c.book_id = ${bookId}::int order by c.number`,
      );
      for (const s of spends) expect(s.coins + s.tickets + s.rentals, JSON.stringify(s)).toBe(1);
      const { spent, balance: left } = await holdings(t.db, reader.userId);
      expect(left).toBe(1000 - spent);
    });
  });
});
