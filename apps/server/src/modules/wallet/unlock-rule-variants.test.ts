// Per-branch variants of a book's unlock rules: the console sets, reads and deletes one per promotion branch
// (owners and editors, audited), and a reader's unlocks, unlock options and chapter marks follow their stored
// branch's variant, else the book's default; the ledger's and the unlock ledger's invariants after every test.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { auditedWrites, consoleOperators, type Role } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { auditLog, bookUnlockRules, users } from '../../db/schema/index.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { newBook, nth } from './wallet-test-kit.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];
const ROLES: readonly Role[] = ['owner', 'editor', 'finance', 'support'];
const HOUR = 3_600_000;
const rules = (waitHours: number, earlyAccessChapters = 1) => ({
  waitFree: { waitMinutes: waitHours * 60, rentalHours: 72, newReaderExtra: 0 },
  earlyAccessChapters,
  bundlePercent: 0,
});

describeDb('per-branch variants of a book’s unlock rules', () => {
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

  const setRules = (role: Role, bookId: number, body: object) =>
    admin(role, 'POST', `/api/admin/books/${bookId}/unlock-rules`, body);
  const deleteVariant = (role: Role, bookId: number, branchId: number) =>
    admin(role, 'POST', `/api/admin/books/${bookId}/unlock-rules/delete`, { branchId });
  const rowsOf = (bookId: number) =>
    t.db.select().from(bookUnlockRules).where(eq(bookUnlockRules.bookId, bookId));
  const reader = async (branchId?: number) => {
    const r = await registerVisitor(t);
    if (branchId !== undefined) await t.db.update(users).set({ branchId }).where(eq(users.id, r.userId));
    return r;
  };
  const asReader = (r: TestVisitor, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: r.cookie }, ...(payload ? { payload } : {}) });
  /** read_chapter's unlockOptions of a locked chapter. */
  const options = async (r: TestVisitor, bookId: number, number: number) => {
    const res = await asReader(r, 'GET', `/api/book/read_chapter?bookId=${bookId}&number=${number}`);
    expect(res.json().code, res.body).toBe(999);
    return res.json().data.unlockOptions;
  };
  const unlockWaitFree = (r: TestVisitor, bookId: number, chapterId: number) =>
    asReader(r, 'POST', '/api/book/chapter/unlock', { bookId, chapterId, by: 'wait_free' });
  const marks = async (r: TestVisitor, bookId: number) =>
    (await asReader(r, 'POST', `/api/book/chapter/list?bookId=${bookId}`)).json().data as {
      earlyAccess?: boolean;
      waitFreeReadyAt?: number;
    }[];

  it('a reader of branch A waits 12 hours; a reader of B and a branch-less reader wait 24', async () => {
    const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 10, 10], vipFree: false });
    expect((await setRules('editor', bookId, rules(24))).statusCode).toBe(200);
    const variant = await setRules('editor', bookId, { ...rules(12), branchId: 3101 });
    expect(variant.statusCode, variant.body).toBe(200);
    expect(variant.json().data).toMatchObject({ ...rules(12), branchId: 3101, branches: [3101] });

    const [a, b, none] = [await reader(3101), await reader(3102), await reader()];
    for (const r of [a, b, none]) {
      const res = await unlockWaitFree(r, bookId, nth(chapters, 1).id);
      expect(res.json(), res.body).toMatchObject({ result: true, data: { source: 'wait_free' } });
    }
    const waits = [];
    for (const r of [a, b, none]) {
      const readyAt = (await options(r, bookId, 3)).waitFree.readyAt;
      // The chapter list marks the same wait.
      expect(Math.abs((nth(await marks(r, bookId), 2).waitFreeReadyAt ?? 0) - readyAt)).toBeLessThan(1000);
      waits.push(Math.round((readyAt - Date.now()) / HOUR));
    }
    expect(waits).toEqual([12, 24, 24]);
    // The book's detail (a shared answer, the same for every reader) shows the default.
    const detail = await asReader(a, 'GET', `/api/book/detail/${bookId}`);
    expect(detail.json().data.waitFree).toEqual({ waitMinutes: 24 * 60, rentalHours: 72 });
  });

  it('a variant with early access 3 against the default 1: only its branch’s readers see 3 early chapters', async () => {
    const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 10, 10, 10], vipFree: false });
    expect((await setRules('owner', bookId, rules(24, 1))).statusCode).toBe(200);
    expect((await setRules('owner', bookId, { ...rules(24, 3), branchId: 3201 })).statusCode).toBe(200);
    const [a, b] = [await reader(3201), await reader()];

    expect((await marks(a, bookId)).map((c) => !!c.earlyAccess)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect((await marks(b, bookId)).map((c) => !!c.earlyAccess)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(await options(a, bookId, 4)).toMatchObject({ earlyAccess: true, waitFree: null });
    expect(await options(b, bookId, 4)).toMatchObject({ earlyAccess: false, waitFree: { rentalHours: 72 } });
    // The unlock path agrees: chapter 4 is early access for A (coins only), not for B.
    expect((await unlockWaitFree(a, bookId, nth(chapters, 3).id)).json()).toMatchObject({
      code: 999,
      data: { earlyAccess: true },
    });
    expect((await unlockWaitFree(b, bookId, nth(chapters, 3).id)).json()).toMatchObject({
      result: true,
      data: { source: 'wait_free' },
    });
  });

  it('the console reads a branch (its variant, or the default it follows), deletes a variant, and its readers fall back', async () => {
    const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10, 10], vipFree: false });
    expect((await setRules('editor', bookId, rules(24))).statusCode).toBe(200);
    // A branch without a variant shows the default's values, never saved.
    const inherited = (
      await admin('support', 'GET', `/api/admin/books/${bookId}/unlock-rules?branchId=3301`)
    ).json();
    expect(inherited.data).toMatchObject({ ...rules(24), branchId: 3301, updatedAt: null, branches: [] });

    expect((await setRules('editor', bookId, { ...rules(12), branchId: 3301 })).statusCode).toBe(200);
    expect((await setRules('editor', bookId, { ...rules(6), branchId: -2 })).statusCode).toBe(200);
    const got = (
      await admin('finance', 'GET', `/api/admin/books/${bookId}/unlock-rules?branchId=3301`)
    ).json();
    expect(got.data).toMatchObject({ ...rules(12), branchId: 3301, branches: [-2, 3301] });
    expect(got.data.updatedAt).toEqual(expect.any(String));
    const byDefault = (await admin('finance', 'GET', `/api/admin/books/${bookId}/unlock-rules`)).json();
    expect(byDefault.data).toMatchObject({ ...rules(24), branchId: null, branches: [-2, 3301] });

    const a = await reader(3301);
    expect((await options(a, bookId, 2)).waitFree).not.toBeNull();
    const deleted = await deleteVariant('editor', bookId, 3301);
    expect(deleted.json()).toMatchObject({
      result: true,
      msg: '渠道专属规则已删除',
      data: { ...rules(24), branchId: null, branches: [-2] },
    });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, `book:${bookId}`), eq(auditLog.action, 'book.unlock-rules.delete')));
    expect(entry).toMatchObject({ actor: 'editor1', before: { ...rules(12), branchId: 3301 }, after: null });
    // A's reader follows the default again: a wait-free unlock starts a 24-hour wait.
    const [first] = (await rowsOf(bookId)).filter((r) => r.branchId === null);
    expect(first?.waitMinutes).toBe(24 * 60);
    const res = await unlockWaitFree(a, bookId, nth(chapters, 1).id);
    expect(res.json()).toMatchObject({ result: true, data: { source: 'wait_free' } });
    expect(Math.round(((await options(a, bookId, 3)).waitFree.readyAt - Date.now()) / HOUR)).toBe(24);

    // Deleting again, or a branch that never had one, is a 404 and writes nothing.
    const writes = await auditedWrites(t.db);
    expect((await deleteVariant('editor', bookId, 3301)).json()).toMatchObject({ result: false, code: 404 });
    expect((await deleteVariant('owner', 2_000_000_000, 3301)).json()).toMatchObject({ code: 404 });
    expect(await auditedWrites(t.db)).toBe(writes);
  });

  it('setting and deleting a variant: owners and editors only; others get 403 and nothing changes', async () => {
    const { bookId } = await newBook(t.db, { prices: [0, 10] });
    expect((await setRules('owner', bookId, { ...rules(12), branchId: 3401 })).statusCode).toBe(200);
    const before = await rowsOf(bookId);
    const writes = await auditedWrites(t.db);
    for (const role of ['finance', 'support'] as const) {
      for (const res of [
        await setRules(role, bookId, { ...rules(1), branchId: 3401 }),
        await setRules(role, bookId, { ...rules(1), branchId: 3402 }),
        await deleteVariant(role, bookId, 3401),
      ]) {
        expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ result: false, code: 403 });
      }
    }
    expect(await rowsOf(bookId)).toEqual(before);
    expect(await auditedWrites(t.db)).toBe(writes);
    for (const role of ['owner', 'editor'] as const) {
      expect((await setRules(role, bookId, { ...rules(2), branchId: 3401 })).statusCode).toBe(200);
      expect((await deleteVariant(role, bookId, 3401)).statusCode).toBe(200);
    }
    expect(await rowsOf(bookId)).toEqual([]);
    // A bad branch is a 400 and changes nothing.
    const bad = await setRules('owner', bookId, { ...rules(2), branchId: 'x' });
    expect(bad.json()).toMatchObject({ result: false, code: 400 });
    expect(await rowsOf(bookId)).toEqual([]);
  });

  it('operators saving one branch’s variant at once all succeed and make one row', async () => {
    const { bookId } = await newBook(t.db, { prices: [0, 10] });
    const saves = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((h) =>
        setRules(h % 2 ? 'owner' : 'editor', bookId, { ...rules(h), branchId: 3501 }),
      ),
    );
    expect(saves.map((s) => s.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const rows = await rowsOf(bookId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.branchId).toBe(3501);
  });
});
