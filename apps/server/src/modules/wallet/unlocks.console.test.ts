// The console's unlock rules of a book and its reading-ticket grants (docs/decisions.md, "Unlock rules and ticket
// grants in the console"): every call for every role, the limits, what a reader then sees and unlocks, the audit
// log, and double clicks and races granting once; the ledger's and the unlock ledger's invariants after every test.
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditedWrites, consoleOperators, type Role } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { auditLog, bookUnlockRules, readingTickets } from '../../db/schema/index.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { newBook, nth } from './wallet-test-kit.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];
const ROLES: readonly Role[] = ['owner', 'editor', 'finance', 'support'];
const requestId = () => randomUUID().replaceAll('-', '');
const wait1Early2 = {
  waitFree: { waitMinutes: 1, rentalHours: 72, newReaderExtra: 0 },
  earlyAccessChapters: 2,
  bundlePercent: 0,
};

describeDb('the console’s unlock rules and reading tickets', () => {
  let t: TestApp;
  let admin: Admin;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
    ({ admin } = await consoleOperators(t, ROLES));
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
    await expectUnlockInvariants(t.db);
  });
  afterAll(() => t?.close());

  const audits = (target: string, action: string) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, target), like(auditLog.action, action)));
  const rulesOf = (bookId: number) =>
    t.db.select().from(bookUnlockRules).where(eq(bookUnlockRules.bookId, bookId));
  const ticketsOf = (userId: number) =>
    t.db.select().from(readingTickets).where(eq(readingTickets.userId, userId));
  const setRules = (role: Role, bookId: number, body: object) =>
    admin(role, 'POST', `/api/admin/books/${bookId}/unlock-rules`, body);
  const grant = (role: Role, userId: number, body: object) =>
    admin(role, 'POST', `/api/admin/readers/${userId}/tickets`, body);
  const twoTickets = (over: object = {}) => ({
    kind: 'read',
    count: 2,
    expiresInDays: 7,
    scope: null,
    reason: '活动补偿',
    requestId: requestId(),
    ...over,
  });
  const asReader = (reader: TestVisitor, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: reader.cookie }, ...(payload ? { payload } : {}) });

  it('every call: allowed roles reach it, others get 403 and strangers 401; a refused call changes nothing', async () => {
    const nobody = 2147483647;
    const calls: ['GET' | 'POST', string, object | undefined, readonly Role[]][] = [
      ['GET', `/api/admin/books/${nobody}/unlock-rules`, undefined, ROLES],
      ['POST', `/api/admin/books/${nobody}/unlock-rules`, wait1Early2, ['owner', 'editor']],
      ['GET', `/api/admin/readers/${nobody}/tickets`, undefined, ['owner', 'finance', 'support']],
      ['POST', `/api/admin/readers/${nobody}/tickets`, twoTickets(), ['owner', 'finance']],
    ];
    const writes = await auditedWrites(t.db);
    for (const [method, url, payload, allowed] of calls) {
      for (const role of ROLES) {
        const res = await admin(role, method, url, payload);
        const expected = allowed.includes(role) ? 404 : 403;
        expect(res.statusCode, `${role} ${method} ${url}: ${res.body}`).toBe(expected);
        expect(res.json()).toMatchObject({ result: false, code: expected });
      }
      const anonymous = await t.app.inject({
        method,
        url,
        headers: { origin: t.config.trustedOrigins[0] as string },
        ...(payload ? { payload } : {}),
      });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await auditedWrites(t.db)).toBe(writes);
  });

  describe('a book’s unlock rules', () => {
    it('an editor sets wait-for-free and early access: read back, audited before and after, and readers unlock by them', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 10, 10], vipFree: false });
      const none = await admin('support', 'GET', `/api/admin/books/${bookId}/unlock-rules`);
      expect(none.json().data).toEqual({
        bookId,
        waitFree: null,
        earlyAccessChapters: 0,
        bundlePercent: 0,
        chapterCount: 5,
        updatedAt: null,
        branchId: null,
        branches: [],
      });

      const saved = await setRules('editor', bookId, wait1Early2);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({
        result: true,
        msg: '解锁规则已保存',
        data: { ...wait1Early2, bookId },
      });
      const read = (await admin('finance', 'GET', `/api/admin/books/${bookId}/unlock-rules`)).json().data;
      expect(read).toMatchObject({ ...wait1Early2, chapterCount: 5, updatedAt: expect.any(String) });

      // Others may not change them: nothing moves.
      for (const role of ['finance', 'support'] as const)
        expect((await setRules(role, bookId, { ...wait1Early2, waitFree: null })).statusCode).toBe(403);
      expect((await rulesOf(bookId))[0]).toMatchObject({ waitMinutes: 1, earlyAccessChapters: 2 });

      // The owner turns the bundle on; each save is one audit entry with the rules before and after.
      expect((await setRules('owner', bookId, { ...wait1Early2, bundlePercent: 20 })).statusCode).toBe(200);
      const entries = await audits(`book:${bookId}`, 'book.unlock-rules');
      expect(entries.map((e) => [e.actor, e.before, e.after])).toEqual([
        ['editor1', null, { ...wait1Early2, branchId: null }],
        ['owner1', { ...wait1Early2, branchId: null }, { ...wait1Early2, branchId: null, bundlePercent: 20 }],
      ]);

      // A reader waits for free on chapter 2; chapter 5 (one of the newest two) is early access.
      const reader = await registerVisitor(t);
      const unlock = (chapter: number) =>
        asReader(reader, 'POST', '/api/book/chapter/unlock', {
          bookId,
          chapterId: nth(chapters, chapter - 1).id,
          by: 'wait_free',
        });
      expect((await unlock(5)).json()).toMatchObject({
        code: 999,
        data: { earlyAccess: true, waitFree: null },
      });
      expect((await unlock(2)).json()).toMatchObject({ result: true, data: { source: 'wait_free' } });

      // Turning wait-for-free off keeps the reader's rental but offers no more.
      expect((await setRules('editor', bookId, { ...wait1Early2, waitFree: null })).statusCode).toBe(200);
      expect((await rulesOf(bookId))[0]).toMatchObject({
        waitMinutes: null,
        rentalHours: 72,
        newReaderExtra: 0,
      });
      expect((await unlock(3)).json()).toMatchObject({ code: 999, msg: '本书暂未开启等就免费' });
    });

    it('a save shows at once in the book’s detail, an answer the server keeps for every reader', async () => {
      const { bookId } = await newBook(t.db, { prices: [0, 10, 10] });
      const detail = async () => {
        const res = await t.app.inject({ method: 'GET', url: `/api/book/detail/${bookId}` });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.waitFree;
      };
      // Asked twice: the second answer is the kept one.
      expect(await detail()).toBeNull();
      expect(await detail()).toBeNull();
      expect((await setRules('editor', bookId, wait1Early2)).statusCode).toBe(200);
      expect(await detail()).toMatchObject({ waitMinutes: 1 });
      expect((await setRules('owner', bookId, { ...wait1Early2, waitFree: null })).statusCode).toBe(200);
      expect(await detail()).toBeNull();
    });

    it('refuses values out of bounds with a Chinese 400 naming the field, and an unknown book with 404; nothing changes', async () => {
      const { bookId } = await newBook(t.db, { prices: [0, 10] });
      expect((await setRules('editor', bookId, wait1Early2)).statusCode).toBe(200);
      const before = await rulesOf(bookId);
      const writes = await auditedWrites(t.db);
      const wf = wait1Early2.waitFree;
      const cases: [object, string, RegExp][] = [
        [{ waitFree: { ...wf, waitMinutes: 0 } }, 'waitMinutes', /等待时间/],
        [{ waitFree: { ...wf, waitMinutes: 43_201 } }, 'waitMinutes', /30 天/],
        [{ waitFree: { ...wf, rentalHours: 0 } }, 'rentalHours', /租借时长/],
        [{ waitFree: { ...wf, rentalHours: 721 } }, 'rentalHours', /720/],
        [{ waitFree: { ...wf, newReaderExtra: -1 } }, 'newReaderExtra', /新读者/],
        [{ earlyAccessChapters: -1 }, 'earlyAccessChapters', /抢先看/],
        [{ earlyAccessChapters: 101 }, 'earlyAccessChapters', /抢先看/],
        [{ bundlePercent: 91 }, 'bundlePercent', /折扣/],
        [{ bundlePercent: 1.5 }, 'bundlePercent', /bundlePercent/],
        [{ waitFree: { waitMinutes: 10 } }, 'rentalHours', /缺少/],
      ];
      for (const [change, field, msg] of cases) {
        const res = await setRules('editor', bookId, { ...wait1Early2, ...change });
        expect(res.statusCode, JSON.stringify(change)).toBe(400);
        expect(res.json()).toMatchObject({ result: false, code: 400, data: { field } });
        expect(res.json().msg).toMatch(msg);
      }
      expect(await rulesOf(bookId)).toEqual(before);
      expect(await auditedWrites(t.db)).toBe(writes);
      const unknown = await setRules('editor', 2_000_000_000, wait1Early2);
      expect(unknown.json()).toMatchObject({ result: false, code: 404, msg: '未找到该书籍' });
    });
  });

  describe('reading tickets granted by an operator', () => {
    it('finance grants two tickets with a reason: the reader sees them, unlocks with one, and the console lists them', async () => {
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10], vipFree: false });
      const reader = await registerVisitor(t);
      // rentalHours null (the form's empty 解锁时长): permanent, as leaving it out.
      const res = await grant('finance', reader.userId, twoTickets({ rentalHours: null }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        result: true,
        msg: '已发放 2 张阅读券',
        data: { kind: 'read', count: 2, usable: 2, repeated: false },
      });
      const expiresAt = Date.parse(res.json().data.expiresAt);
      expect(Math.abs(expiresAt - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);

      const mine = (await asReader(reader, 'GET', '/api/user/tickets')).json().data.list;
      expect(mine).toHaveLength(2);
      expect(mine[0]).toMatchObject({
        kind: 'read',
        rentalHours: null,
        scope: null,
        state: 'usable',
        expiresAt,
      });

      const unlocked = await asReader(reader, 'POST', '/api/book/chapter/unlock', {
        bookId,
        chapterId: nth(chapters, 1).id,
        by: 'ticket',
      });
      expect(unlocked.json()).toMatchObject({ result: true, data: { source: 'ticket', endsAt: null } });

      const listed = await admin('support', 'GET', `/api/admin/readers/${reader.userId}/tickets`);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().data).toMatchObject({ page: 1, total: 2 });
      expect(listed.json().data.list.map((x: { state: string }) => x.state)).toEqual(['usable', 'spent']);
      expect(listed.json().data.list[1]).toMatchObject({
        source: 'grant',
        reason: '活动补偿',
        scope: null,
        spentAt: expect.any(String),
      });

      const [entry, ...more] = await audits(`user:${reader.userId}`, 'reader.tickets.grant');
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actor: 'finance1',
        before: { usable: 0 },
        after: { usable: 2, kind: 'read', count: 2, reason: '活动补偿', scope: null },
      });
    });

    it('a ticket scoped to books unlocks only those, and a rental ticket’s unlock ends', async () => {
      const a = await newBook(t.db, { prices: [0, 10], vipFree: false, title: '券适用之书' });
      const b = await newBook(t.db, { prices: [0, 10], vipFree: false });
      const reader = await registerVisitor(t);
      const res = await grant(
        'owner',
        reader.userId,
        twoTickets({ count: 1, scope: [a.bookId], rentalHours: 48 }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const by = (book: typeof a) =>
        asReader(reader, 'POST', '/api/book/chapter/unlock', {
          bookId: book.bookId,
          chapterId: nth(book.chapters, 1).id,
          by: 'ticket',
        });
      expect((await by(b)).json()).toMatchObject({ code: 999, msg: '没有可用的阅读券' });
      const made = (await by(a)).json().data;
      expect(made.source).toBe('ticket');
      expect((made.endsAt - Date.now()) / 3_600_000).toBeGreaterThan(47.9);
      const listed = (await admin('finance', 'GET', `/api/admin/readers/${reader.userId}/tickets`)).json()
        .data;
      expect(listed.list[0]).toMatchObject({
        rentalHours: 48,
        scope: [{ bookId: a.bookId, title: '券适用之书' }],
      });
    });

    it('refuses a grant it cannot make with a Chinese 400 naming the field; grants nothing', async () => {
      const reader = await registerVisitor(t);
      const writes = await auditedWrites(t.db);
      const cases: [object, string, RegExp][] = [
        [{ reason: '  ' }, 'reason', /原因/],
        [{ count: 0 }, 'count', /1 到 100/],
        [{ count: 101 }, 'count', /1 到 100/],
        [{ expiresInDays: 0 }, 'expiresInDays', /有效期/],
        [{ rentalHours: 721 }, 'rentalHours', /租借时长/],
        [{ scope: [] }, 'scope', /至少选择一本书/],
        [{ scope: [2_000_000_000] }, 'scope', /书籍 ID 2000000000 不存在/],
        [{ kind: 'gold' }, 'kind', /kind/],
        [{ requestId: 'x' }, 'requestId', /requestId/],
      ];
      for (const [change, field, msg] of cases) {
        const res = await grant('finance', reader.userId, twoTickets(change));
        expect(res.statusCode, JSON.stringify(change)).toBe(400);
        expect(res.json()).toMatchObject({ result: false, code: 400, data: { field } });
        expect(res.json().msg).toMatch(msg);
      }
      expect(await ticketsOf(reader.userId)).toEqual([]);
      expect(await auditedWrites(t.db)).toBe(writes);
    });

    it('a double click, a retry and parallel copies of one request grant once; another request id grants again', async () => {
      const reader = await registerVisitor(t);
      const body = twoTickets();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => grant('finance', reader.userId, body)),
      );
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      expect(answers.filter((a) => a.json().data.repeated === false)).toHaveLength(1);
      expect(answers.filter((a) => a.json().msg === '该发放已完成，未重复执行')).toHaveLength(7);
      expect(await ticketsOf(reader.userId)).toHaveLength(2);

      const retry = await grant('owner', reader.userId, body);
      expect(retry.json().data).toMatchObject({ repeated: true, count: 2, usable: 2 });
      const reused = await grant('finance', reader.userId, { ...body, count: 3 });
      expect(reused.json()).toMatchObject({ result: false, code: 409, data: { field: 'requestId' } });

      const [x, y] = await Promise.all([
        grant('finance', reader.userId, twoTickets()),
        grant('owner', reader.userId, twoTickets({ kind: 'presale', count: 1 })),
      ]);
      expect([x?.json().data.repeated, y?.json().data.repeated]).toEqual([false, false]);
      expect(await ticketsOf(reader.userId)).toHaveLength(5);
      expect(await audits(`user:${reader.userId}`, 'reader.tickets.grant')).toHaveLength(3);
    });
  });
});
