// Campaigns (限免与折扣): the console's calls for every role, audited; a live limited-free campaign opens chapters
// with no unlock stored and no coin spent (the chapter list, read_chapter and the unlock call agree), locked again
// at its end; a discount lowers the price shown and charged; both per promotion branch; windows in China time.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditedWrites, consoleOperators, type Role } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import {
  auditLog,
  chapterPurchases,
  ledgerTransfers,
  unlockCampaigns,
  users,
} from '../../db/schema/index.ts';
import { createUnlocksRepository } from './unlocks.repository.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { giveCoins, newBook, nth } from './wallet-test-kit.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];
const ROLES: readonly Role[] = ['owner', 'editor', 'finance', 'support'];
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describeDb('campaigns: limited-time free and discounts', () => {
  let t: TestApp;
  let admin: Admin;
  let unlocks: ReturnType<typeof createUnlocksRepository>;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
    ({ admin } = await consoleOperators(t, ROLES));
    unlocks = createUnlocksRepository(t.db);
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
    await expectUnlockInvariants(t.db);
  });
  afterAll(() => t?.close());

  const read = (reader: TestVisitor, bookId: number, number: number) =>
    t.app.inject({
      url: `/api/book/read_chapter?bookId=${bookId}&number=${number}`,
      headers: { cookie: reader.cookie },
    });
  const owned = async (reader: TestVisitor, bookId: number) =>
    (
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/book/chapter/list?bookId=${bookId}`,
          headers: { cookie: reader.cookie },
        })
      ).json().data as { number: number; alreadyBuy: boolean }[]
    )
      .filter((c) => c.alreadyBuy)
      .map((c) => c.number);
  const buy = (reader: TestVisitor, chapterId: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${chapterId}`,
      headers: { cookie: reader.cookie },
    });
  const campaign = (body: Record<string, unknown>) => ({
    title: '测试活动',
    chapterIds: null,
    branchId: null,
    discountPercent: null,
    startsAt: iso(Date.now() - HOUR),
    endsAt: iso(Date.now() + HOUR),
    ...body,
  });
  const add = async (body: Record<string, unknown>, role: Role = 'editor') => {
    const res = await admin(role, 'POST', '/api/admin/campaigns', campaign(body));
    expect(res.json(), res.body).toMatchObject({ result: true });
    return res.json().data as { id: number; state: string; startsAt: string; endsAt: string };
  };
  const onBranch = (reader: TestVisitor, branchId: number) =>
    t.db.update(users).set({ branchId }).where(eq(users.id, reader.userId));
  /**
   * Moves the campaign's window so that now stands where `at` stands in it: the window keeps its length, and what
   * the database decides at now() is what it would decide with its clock at `at`.
   */
  const clockAt = (id: number, at: string) =>
    t.db.execute(sql`update unlock_campaigns
      set starts_at = starts_at + (now() - ${at}::timestamptz), ends_at = ends_at + (now() - ${at}::timestamptz)
      where id = ${id}::int`);

  describe('the console', () => {
    it('every call: owners and editors reach it, finance and support get 403 and change nothing', async () => {
      const { bookId } = await newBook(t.db, { prices: [0, 10] });
      const made = await add({ kind: 'limited_free', bookId }, 'owner');
      const calls: ['GET' | 'POST', string, object | undefined][] = [
        ['GET', '/api/admin/campaigns', undefined],
        ['POST', '/api/admin/campaigns', { kind: 'limited_free', ...campaign({ bookId }) }],
        ['POST', `/api/admin/campaigns/${made.id}`, campaign({ bookId, title: '改名' })],
        ['POST', `/api/admin/campaigns/${made.id}/end`, undefined],
      ];
      for (const [method, url, body] of calls) {
        for (const role of ['finance', 'support'] as const) {
          const writes = await auditedWrites(t.db);
          const before = await t.db.select().from(unlockCampaigns);
          const res = await admin(role, method, url, body);
          expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
          expect(res.json()).toMatchObject({ result: false, code: 403 });
          expect(await t.db.select().from(unlockCampaigns)).toEqual(before);
          expect(await auditedWrites(t.db)).toBe(writes);
        }
        const anonymous = await t.app.inject({
          method,
          url,
          headers: { origin: t.config.trustedOrigins[0] as string },
          ...(body ? { payload: body } : {}),
        });
        expect(anonymous.statusCode).toBe(401);
      }
      for (const role of ['owner', 'editor'] as const) {
        for (const [method, url, body] of calls) {
          const res = await admin(role, method, url, body);
          expect(res.json(), `${role} ${method} ${url}: ${res.body}`).toMatchObject({ result: true });
        }
      }
    });

    it('makes, edits and ends a campaign, each audited with before and after', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10], title: '活动之书' });
      const made = await add({ kind: 'discount', bookId, discountPercent: 30, title: '七折' });
      expect(made).toMatchObject({
        state: 'live',
        bookTitle: '活动之书',
        discountPercent: 30,
        chapterIds: null,
      });

      const edited = await admin('editor', 'POST', `/api/admin/campaigns/${made.id}`, {
        ...campaign({ bookId, discountPercent: 50, title: '五折', branchId: 7 }),
        chapterIds: [nth(chapters, 2).id, nth(chapters, 1).id],
      });
      expect(edited.json().data).toMatchObject({
        kind: 'discount',
        title: '五折',
        discountPercent: 50,
        branchId: 7,
        chapterIds: [nth(chapters, 1).id, nth(chapters, 2).id],
      });
      const ended = (await admin('owner', 'POST', `/api/admin/campaigns/${made.id}/end`)).json().data;
      expect(ended.state).toBe('ended');
      expect(new Date(ended.endsAt).getTime()).toBeLessThanOrEqual(Date.now());
      // Ending an ended one changes nothing and writes nothing.
      const writes = await auditedWrites(t.db);
      expect((await admin('owner', 'POST', `/api/admin/campaigns/${made.id}/end`)).json().data.endsAt).toBe(
        ended.endsAt,
      );
      expect(await auditedWrites(t.db)).toBe(writes);

      const log = await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `campaign:${made.id}`))
        .orderBy(auditLog.id);
      expect(log.map((e) => e.action)).toEqual(['campaign.add', 'campaign.edit', 'campaign.end']);
      expect(log[0]).toMatchObject({ actor: 'editor1', before: null, after: { discountPercent: 30 } });
      expect(log[1]).toMatchObject({
        before: { discountPercent: 30, title: '七折' },
        after: { discountPercent: 50, title: '五折', branchId: 7 },
      });
      expect(log[2]?.after).toMatchObject({ endsAt: ended.endsAt });

      const listed = (await admin('editor', 'GET', `/api/admin/campaigns?bookId=${bookId}`)).json().data;
      expect(listed).toMatchObject({ total: 1, list: [{ id: made.id, state: 'ended' }] });
    });

    it('refuses a bad form with a clear 400 and stores nothing', async () => {
      const { bookId } = await newBook(t.db, { prices: [0, 10] });
      const other = await newBook(t.db, { prices: [0, 10] });
      const now = Date.now();
      const bad: [Record<string, unknown>, string][] = [
        [
          { kind: 'limited_free', bookId, startsAt: iso(now + HOUR), endsAt: iso(now) },
          '结束时间须晚于开始时间',
        ],
        [
          { kind: 'limited_free', bookId, startsAt: iso(now - 2 * HOUR), endsAt: iso(now - HOUR) },
          '结束时间已过',
        ],
        [{ kind: 'limited_free', bookId, endsAt: iso(now + 400 * 24 * HOUR) }, '活动最长一年'],
        [{ kind: 'discount', bookId }, '请填写折扣'],
        [{ kind: 'limited_free', bookId, discountPercent: 20 }, '限免活动不设折扣'],
        [{ kind: 'limited_free', bookId: 2147483000 }, '作品不存在'],
        [{ kind: 'limited_free', bookId, chapterIds: [nth(other.chapters, 1).id] }, '所选章节不属于该作品'],
      ];
      const count = await t.db.$count(unlockCampaigns);
      for (const [body, msg] of bad) {
        const res = await admin('editor', 'POST', '/api/admin/campaigns', campaign(body));
        expect(res.statusCode, msg).toBe(400);
        expect(res.json()).toMatchObject({ result: false, msg });
      }
      for (const body of [
        { kind: 'free', bookId },
        { kind: 'discount', bookId, discountPercent: 95 },
      ]) {
        expect((await admin('editor', 'POST', '/api/admin/campaigns', campaign(body))).statusCode).toBe(400);
      }
      expect(await t.db.$count(unlockCampaigns)).toBe(count);
      expect((await admin('editor', 'POST', '/api/admin/campaigns/2147483000/end')).statusCode).toBe(404);
    });
  });

  describe('limited-time free', () => {
    it('opens a priced chapter with no unlock stored and no coin spent, and locks it again when ended', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10], vipFree: false });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      expect((await read(reader, bookId, 2)).json().code).toBe(999);

      const made = await add({ kind: 'limited_free', bookId, chapterIds: [nth(chapters, 1).id] });
      expect((await read(reader, bookId, 2)).json()).toMatchObject({ result: true });
      expect((await read(reader, bookId, 3)).json().code).toBe(999);
      expect(await owned(reader, bookId)).toEqual([2]);
      // The chapter list marks it 限免 with the campaign's end, as read_chapter's unlock says.
      const list = (
        await t.app.inject({
          method: 'POST',
          url: `/api/book/chapter/list?bookId=${bookId}`,
          headers: { cookie: reader.cookie },
        })
      ).json().data as { number: number; unlockSource?: string; unlockEndsAt?: number | null }[];
      expect(list.find((c) => c.number === 2)).toMatchObject({
        unlockSource: 'limited_free',
        unlockEndsAt: new Date(made.endsAt).getTime(),
      });
      expect(list.find((c) => c.number === 3)?.unlockSource).toBeUndefined();
      const held = await unlocks.held(reader.userId, nth(chapters, 1).id);
      expect(held).toMatchObject({ source: 'limited_free' });
      expect(held?.endsAt?.toISOString()).toBe(made.endsAt);
      // Unlocking it by any way answers the campaign's unlock and spends nothing.
      for (const by of ['coins', 'ticket', 'wait_free'] as const) {
        expect(
          await unlocks.unlock({ userId: reader.userId, bookId, chapterId: nth(chapters, 1).id, by }),
        ).toMatchObject({
          outcome: 'already',
          source: 'limited_free',
        });
      }
      expect(await t.db.$count(chapterPurchases, eq(chapterPurchases.userId, reader.userId))).toBe(0);
      expect(
        rowsCount(
          await t.db.execute(sql`select 1 from chapter_unlocks where user_id = ${reader.userId}::int`),
        ),
      ).toBe(0);

      await admin('editor', 'POST', `/api/admin/campaigns/${made.id}/end`);
      expect((await read(reader, bookId, 2)).json().code).toBe(999);
      expect(await owned(reader, bookId)).toEqual([]);
      expect(await unlocks.held(reader.userId, nth(chapters, 1).id)).toBeUndefined();
    });

    it('a window across a China midnight (23:30 to 00:30): free from its start, still free after midnight, locked at its end', async () => {
      const { bookId } = await newBook(t.db, { prices: [0, 10], vipFree: false });
      const reader = await registerVisitor(t);
      // A China date a few days ahead: the console sends China times as instants with their +08:00.
      const day = new Date(Date.now() + 3 * 24 * HOUR + 8 * HOUR).toISOString().slice(0, 10);
      const next = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
      const made = await add({
        kind: 'limited_free',
        bookId,
        startsAt: `${day}T23:30:00+08:00`,
        endsAt: `${next}T00:30:00+08:00`,
      });
      expect(made).toMatchObject({
        state: 'upcoming',
        startsAt: `${day}T15:30:00.000Z`,
        endsAt: `${day}T16:30:00.000Z`,
      });
      expect((await read(reader, bookId, 2)).json().code).toBe(999);

      const cases: [string, boolean][] = [
        [`${day}T23:29:59+08:00`, false],
        [`${day}T23:30:00+08:00`, true],
        [`${next}T00:10:00+08:00`, true],
        [`${next}T00:30:00+08:00`, false],
      ];
      for (const [at, free] of cases) {
        // now() moves on between the two statements: the edges are checked a moment inside and at or after them.
        await clockAt(made.id, at);
        const code = (await read(reader, bookId, 2)).json().code;
        expect(code === 999 ? 'locked' : 'free', at).toBe(free ? 'free' : 'locked');
        await t.db.execute(sql`update unlock_campaigns set starts_at = ${made.startsAt}::timestamptz,
                               ends_at = ${made.endsAt}::timestamptz where id = ${made.id}::int`);
      }
    });

    it('at its start the chapter reads free; at its end it is locked (the database clock decides)', async () => {
      const { bookId } = await newBook(t.db, { prices: [0, 10], vipFree: false });
      const reader = await registerVisitor(t);
      const made = await add({ kind: 'limited_free', bookId });
      await t.db.execute(sql`update unlock_campaigns set starts_at = now() where id = ${made.id}::int`);
      expect((await read(reader, bookId, 2)).json().result).toBe(true);
      await t.db.execute(sql`update unlock_campaigns set ends_at = now() where id = ${made.id}::int`);
      expect((await read(reader, bookId, 2)).json().code).toBe(999);
      expect(await owned(reader, bookId)).toEqual([]);
    });

    it('for one promotion branch: its readers read free, a reader of another branch pays', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10], vipFree: false });
      const mine = await registerVisitor(t);
      const other = await registerVisitor(t);
      await onBranch(mine, 4101);
      await onBranch(other, 4102);
      await add({ kind: 'limited_free', bookId, branchId: 4101 });
      expect((await read(mine, bookId, 2)).json().result).toBe(true);
      expect((await read(other, bookId, 2)).json().code).toBe(999);
      await giveCoins(t.db, other.userId, 50);
      expect((await buy(other, nth(chapters, 1).id)).json().data).toMatchObject({
        charged: 10,
        avaliableAmount: 40,
      });
      expect((await read(other, bookId, 2)).json().result).toBe(true);
    });
  });

  describe('discounts', () => {
    it('lowers the price shown and charged by buy and by unlock with coins, in the ledger too; parallel buys charge once', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 3], vipFree: false });
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      await add({ kind: 'discount', bookId, discountPercent: 35 });
      // 10 less 35% is 6.5: rounded down to 6; 3 less 35% is 1.95: 1.
      expect((await unlocks.options(reader.userId, nth(chapters, 1).id))?.coins).toEqual({
        price: 6,
        balance: 100,
      });

      const answers = await Promise.all(Array.from({ length: 8 }, () => buy(reader, nth(chapters, 1).id)));
      expect(answers.map((a) => a.json().data.charged).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 6]);
      expect(
        await unlocks.unlock({ userId: reader.userId, bookId, chapterId: nth(chapters, 2).id, by: 'coins' }),
      ).toMatchObject({ outcome: 'unlocked', source: 'bought' });
      expect((await buy(reader, nth(chapters, 3).id)).json().data).toMatchObject({
        charged: 1,
        avaliableAmount: 87,
      });

      const transfers = await t.db
        .select({ amount: ledgerTransfers.amount, chapterId: ledgerTransfers.chapterId })
        .from(ledgerTransfers)
        .where(and(eq(ledgerTransfers.userId, reader.userId), eq(ledgerTransfers.kind, 'purchase')));
      expect(transfers.map((x) => x.amount).sort()).toEqual([1, 6, 6]);
    });

    it('read_chapter’s refusal and the chapter list show one price, the one charged now: info.price and bookPrice as unlockOptions.coins', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 20], vipFree: false });
      const mine = await registerVisitor(t);
      const other = await registerVisitor(t);
      await onBranch(mine, 4301);
      for (const r of [mine, other]) await giveCoins(t.db, r.userId, 100);
      await add({ kind: 'discount', bookId, discountPercent: 25, branchId: 4301 });
      const locked = (await read(mine, bookId, 2)).json();
      expect(locked).toMatchObject({
        code: 999,
        data: { price: 15, bookPrice: 15, unlockOptions: { coins: { price: 15 } } },
      });
      // Outside the campaign's branch: the list price, everywhere.
      expect((await read(other, bookId, 2)).json()).toMatchObject({
        code: 999,
        data: { price: 20, bookPrice: 20, unlockOptions: { coins: { price: 20 } } },
      });
      // The chapter list shows each reader the same price as the prompt: 15 in the branch, 20 outside it.
      const listed = async (reader: TestVisitor) =>
        (
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/book/chapter/list?bookId=${bookId}`,
              headers: { cookie: reader.cookie },
            })
          ).json().data as { number: number; price: number }[]
        ).map((c) => c.price);
      expect(await listed(mine)).toEqual([0, 15]);
      expect(await listed(other)).toEqual([0, 20]);
      expect((await buy(mine, nth(chapters, 1).id)).json().data.charged).toBe(15);
      expect((await read(mine, bookId, 2)).json()).toMatchObject({ code: 200, data: { price: 20 } });
    });

    it('only inside its window and for its branch; the largest live discount wins', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 20, 20], vipFree: false });
      const mine = await registerVisitor(t);
      const other = await registerVisitor(t);
      await onBranch(mine, 4201);
      for (const r of [mine, other]) await giveCoins(t.db, r.userId, 100);
      await add({ kind: 'discount', bookId, discountPercent: 50, branchId: 4201 });
      await add({ kind: 'discount', bookId, discountPercent: 10 });
      const later = await add({
        kind: 'discount',
        bookId,
        discountPercent: 90,
        startsAt: iso(Date.now() + HOUR),
        endsAt: iso(Date.now() + 2 * HOUR),
      });
      expect((await buy(mine, nth(chapters, 1).id)).json().data.charged).toBe(10);
      expect((await buy(other, nth(chapters, 1).id)).json().data.charged).toBe(18);
      await clockAt(later.id, new Date(Date.now() + HOUR + 60_000).toISOString());
      expect((await buy(other, nth(chapters, 2).id)).json().data.charged).toBe(2);
    });
  });
});

const rowsCount = (result: unknown) =>
  (Array.isArray(result) ? result : ((result as { rows: unknown[] }).rows ?? [])).length;
