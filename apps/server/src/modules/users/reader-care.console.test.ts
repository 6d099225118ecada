// The console's readers (docs/decisions.md, "The console's readers"): the one search box and the orders' 用户
// filter, the reader page and its lists, and every action for every role, audited, with the ledger's invariants
// after every coin move; races on one reader; a blocked reader refused at buy and pay, still reading.
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditedWrites, consoleOperators, type Role } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import {
  infoStatus,
  manyVisitorsEnv,
  post,
  registerVisitor,
  type TestVisitor,
} from '../../../test/visitors.ts';
import { auditLog, ledgerTransfers, users, vipAdjustments } from '../../db/schema/index.ts';
import { applyUrl, demo } from '../payments/payments.test-support.ts';
import { giveCoins, holdings, newBook, nth, whileAccountLocked } from '../wallet/wallet-test-kit.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];
const ROLES: readonly Role[] = ['owner', 'editor', 'finance', 'support'];
const requestId = () => randomUUID().replaceAll('-', '');

describeDb('the console’s readers', () => {
  let t: TestApp;
  let admin: Admin;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    ({ admin } = await consoleOperators(t, ROLES));
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  const auditsOf = (userId: number, action: string) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, `user:${userId}`), like(auditLog.action, action)));
  const coins = (role: Role, userId: number, body: object) =>
    admin(role, 'POST', `/api/admin/readers/${userId}/coins`, body);
  const grant = (amount: number, reason = '漏发补偿', id = requestId()) => ({
    direction: 'grant',
    amount,
    reason,
    requestId: id,
  });

  it('every call: allowed roles reach it, others get 403 and strangers 401; a refused call changes nothing', async () => {
    const nobody = 2147483647;
    const body = { reason: '核对', requestId: requestId() };
    // [method, url, body, roles allowed]; writes name a reader nobody is, so an allowed role gets 404 and nothing moves.
    const calls: ['GET' | 'POST', string, object | undefined, Role[]][] = [
      ['GET', '/api/admin/readers?q=yd12345678', undefined, ['owner', 'finance', 'support']],
      ['GET', `/api/admin/readers/${nobody}`, undefined, ['owner', 'finance', 'support']],
      ['GET', `/api/admin/readers/${nobody}/purchases`, undefined, ['owner', 'finance', 'support']],
      ['GET', `/api/admin/readers/${nobody}/records`, undefined, ['owner', 'finance', 'support']],
      ['GET', `/api/admin/readers/${nobody}/transfers`, undefined, ['owner', 'finance', 'support']],
      ['GET', `/api/admin/readers/${nobody}/sessions`, undefined, ['owner', 'finance', 'support']],
      [
        'POST',
        `/api/admin/readers/${nobody}/coins`,
        { ...body, direction: 'grant', amount: 5 },
        ['owner', 'finance'],
      ],
      ['POST', `/api/admin/readers/${nobody}/vip`, { ...body, days: 5 }, ['owner', 'finance']],
      ['POST', `/api/admin/readers/${nobody}/password`, { reason: '核对' }, ['owner', 'support']],
      ['POST', `/api/admin/readers/${nobody}/sign-out`, { reason: '核对' }, ['owner', 'support']],
      ['POST', `/api/admin/readers/${nobody}/block`, { reason: '核对' }, ['owner', 'support']],
      ['POST', `/api/admin/readers/${nobody}/unblock`, { reason: '核对' }, ['owner', 'support']],
    ];
    const writes = await auditedWrites(t.db);
    for (const [method, url, payload, allowed] of calls) {
      for (const role of ROLES) {
        const res = await admin(role, method, url, payload);
        const expected = !allowed.includes(role) ? 403 : url.includes('?q=') ? 200 : 404;
        expect(res.statusCode, `${role} ${method} ${url}: ${res.body}`).toBe(expected);
        expect(res.json().result).toBe(expected === 200);
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

  describe('the search box and the orders’ 用户 filter', () => {
    it('finds a reader by account (either case), bound mobile, user id or visitor id', async () => {
      const traceId = `trace-${randomUUID()}`;
      const reader = await registerVisitor(t, { headers: { 'x-trace-id': traceId } });
      const mobile = `139${String(reader.userId).padStart(8, '0')}`;
      await t.db.update(users).set({ mobile }).where(eq(users.id, reader.userId));
      const cases: [string, string][] = [
        [reader.account, 'account'],
        [reader.account.toUpperCase(), 'account'],
        [` ${reader.account} `, 'account'],
        [mobile, 'mobile'],
        [String(reader.userId), 'userId'],
        [traceId, 'visitorId'],
      ];
      for (const [q, matched] of cases) {
        const res = await admin('support', 'GET', `/api/admin/readers?q=${encodeURIComponent(q)}`);
        expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
        expect(res.json().data.list, q).toEqual([
          {
            userId: reader.userId,
            account: reader.account,
            mobile: `139****${mobile.slice(-4)}`,
            matched,
            createdAt: expect.any(String),
            blocked: false,
          },
        ]);
      }
      const none = await admin('finance', 'GET', '/api/admin/readers?q=yd00000000');
      expect(none.json()).toMatchObject({ result: true, data: { list: [] } });
    });

    it('refuses input it cannot read, naming the field; editors and strangers may not search', async () => {
      for (const q of ['%20%20', 'yd1234%20567', '%27%20or%201%3D1', 'a%25']) {
        const res = await admin('support', 'GET', `/api/admin/readers?q=${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(res.json()).toMatchObject({ result: false, code: 400, data: { field: 'q' } });
        expect(res.json().msg).toMatch(/账号|手机号|用户 ID|访客 ID/);
      }
      expect((await admin('editor', 'GET', '/api/admin/readers?q=yd12345678')).statusCode).toBe(403);
      expect((await t.app.inject('/api/admin/readers?q=yd12345678')).statusCode).toBe(401);
    });

    it('the orders list’s 用户 filter takes the same input, answers no rows for nobody and 400 for nonsense', async () => {
      const reader = await registerVisitor(t);
      const other = await registerVisitor(t);
      for (const who of [reader, other]) {
        const res = await t.app.inject({
          url: applyUrl({ ...demo.coin600, payChannel: 'wechat_h5', rechargerAmount: 570 }),
          headers: { cookie: who.cookie },
        });
        expect(res.statusCode, res.body).toBe(302);
      }
      for (const user of [reader.account, String(reader.userId)]) {
        const res = await admin('support', 'GET', `/api/admin/orders?user=${user}`);
        expect(res.statusCode, res.body).toBe(200);
        const { list, total } = res.json().data;
        expect(total).toBe(1);
        expect(list.map((o: { userId: number }) => o.userId)).toEqual([reader.userId]);
      }
      const nobody = await admin('support', 'GET', '/api/admin/orders?user=yd00000001');
      expect(nobody.json().data).toMatchObject({ total: 0, list: [] });
      const bad = await admin('support', 'GET', '/api/admin/orders?user=yd%20123');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ result: false, code: 400, data: { field: 'user' } });
    });
  });

  describe('the reader page', () => {
    it('shows a first visit and a last seen for a reader who only registered (no branch link, no call since)', async () => {
      const reader = await registerVisitor(t);
      const profile = (await admin('support', 'GET', `/api/admin/readers/${reader.userId}`)).json().data;
      const nearRegistration = (at: string | null) =>
        at !== null && Math.abs(Date.parse(at) - Date.parse(profile.createdAt)) < 2_000;
      expect(nearRegistration(profile.firstVisitAt), profile.firstVisitAt).toBe(true);
      expect(nearRegistration(profile.lastSeenAt), profile.lastSeenAt).toBe(true);
    });

    it('shows the account, balance, VIP, branch, first visit, last seen and each list, paged', async () => {
      const traceId = `page-${randomUUID()}`;
      const reader = await registerVisitor(t, { headers: { 'x-trace-id': traceId, 'x-branch-id': '7' } });
      await post(
        t,
        '/api/user/user_from_mark',
        {},
        {
          cookie: reader.cookie,
          headers: { 'x-trace-id': traceId, 'x-branch-id': '7' },
        },
      );
      expect(await infoStatus(t, reader.cookie)).toBe(200);
      await giveCoins(t.db, reader.userId, 100);
      const { chapters } = await newBook(t.db, { prices: [10, 20, 30], title: '读者页之书' });
      for (const c of chapters)
        await t.app.inject({
          method: 'POST',
          url: `/api/book/chapter/buy?chapterId=${c.id}`,
          headers: { cookie: reader.cookie },
        });

      const profile = (await admin('finance', 'GET', `/api/admin/readers/${reader.userId}`)).json().data;
      expect(profile).toMatchObject({
        userId: reader.userId,
        account: reader.account,
        mobile: null,
        visitorId: traceId,
        vipEnd: null,
        balance: 40,
        branchId: 7,
        activeSessions: 1,
        blocked: null,
      });
      expect(profile.lastSeenAt).toEqual(expect.any(String));
      expect(Date.now() - Date.parse(profile.lastSeenAt)).toBeLessThan(60_000);
      expect(profile.firstVisitAt).toEqual(expect.any(String));

      const purchases = (
        await admin('support', 'GET', `/api/admin/readers/${reader.userId}/purchases?page=1&size=2`)
      ).json().data;
      expect(purchases).toMatchObject({ page: 1, size: 2, total: 3 });
      expect(purchases.list).toHaveLength(2);
      expect(purchases.list[0]).toMatchObject({ bookTitle: '读者页之书', price: expect.any(Number) });
      const second = (
        await admin('support', 'GET', `/api/admin/readers/${reader.userId}/purchases?page=2&size=2`)
      ).json().data;
      expect(second.list).toHaveLength(1);

      const transfers = (await admin('owner', 'GET', `/api/admin/readers/${reader.userId}/transfers`)).json()
        .data;
      expect(transfers.total).toBe(4);
      expect(
        transfers.list.map((x: { amount: number }) => x.amount).sort((a: number, b: number) => a - b),
      ).toEqual([-30, -20, -10, 100]);
      expect(transfers.list.find((x: { amount: number }) => x.amount === -30).counterparty).toBe(
        'system:sales',
      );

      const records = (
        await admin('owner', 'GET', `/api/admin/readers/${reader.userId}/records?size=10`)
      ).json().data;
      expect(records.total).toBe(4);
      expect(records.list[0].title).toMatch(/购买《读者页之书》/);

      const live = await admin('support', 'GET', `/api/admin/readers/${reader.userId}/sessions`);
      expect(live.json().data).toMatchObject({ total: 1, list: [{ createdAt: expect.any(String) }] });
      // No token, hash or password anywhere on the page.
      for (const body of [JSON.stringify(profile), live.body, JSON.stringify(transfers)])
        expect(body).not.toMatch(/tokenHash|token_hash|argon2|password/i);

      for (const path of ['', '/purchases', '/records', '/transfers', '/sessions']) {
        expect((await admin('editor', 'GET', `/api/admin/readers/${reader.userId}${path}`)).statusCode).toBe(
          403,
        );
        const unknown = await admin('support', 'GET', `/api/admin/readers/2147483647${path}`);
        expect(unknown.statusCode, path).toBe(404);
        expect(unknown.json().msg).toBe('未找到该读者');
      }
      expect(
        (await admin('support', 'GET', `/api/admin/readers/${reader.userId}/purchases?size=101`)).statusCode,
      ).toBe(400);
    });
  });

  describe('coins', () => {
    it('owner and finance grant and take back; support and editor may not; each audited with before and after', async () => {
      const reader = await registerVisitor(t);
      for (const role of ['support', 'editor'] as const) {
        const before = await auditedWrites(t.db);
        expect((await coins(role, reader.userId, grant(50))).statusCode, role).toBe(403);
        expect(await auditedWrites(t.db)).toBe(before);
      }
      expect((await holdings(t.db, reader.userId)).balance).toBe(0);

      const granted = await coins('finance', reader.userId, grant(120, ' 充值未到账补发 '));
      expect(granted.statusCode, granted.body).toBe(200);
      expect(granted.json()).toMatchObject({
        result: true,
        msg: '已补发 120 阅币',
        data: { direction: 'grant', amount: 120, balance: 120, repeated: false },
      });
      const taken = await coins('owner', reader.userId, {
        direction: 'take',
        amount: 20,
        reason: '重复补发，扣回',
        requestId: requestId(),
      });
      expect(taken.json()).toMatchObject({ result: true, data: { balance: 100, repeated: false } });
      expect((await holdings(t.db, reader.userId)).balance).toBe(100);

      const [g, tk, ...more] = [
        ...(await auditsOf(reader.userId, 'reader.coins.grant')),
        ...(await auditsOf(reader.userId, 'reader.coins.take')),
      ];
      expect(more).toEqual([]);
      expect(g).toMatchObject({
        actor: 'finance1',
        before: { balance: 0 },
        after: { balance: 120, amount: 120, reason: '充值未到账补发' },
      });
      expect(tk).toMatchObject({
        actor: 'owner1',
        before: { balance: 120 },
        after: { balance: 100, amount: 20 },
      });

      // The reader reads both in their own records.
      const mine = await t.app.inject({ url: '/api/user/consumption', headers: { cookie: reader.cookie } });
      expect(mine.json().data.list.map((r: { title: string; coins: number }) => [r.title, r.coins])).toEqual(
        expect.arrayContaining([
          ['客服补发 120阅币', 120],
          ['客服扣回 20阅币', -20],
        ]),
      );
      // The transfer on the reader page, from system:adjustments.
      const transfers = (
        await admin('support', 'GET', `/api/admin/readers/${reader.userId}/transfers`)
      ).json().data.list;
      expect(transfers).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'grant', amount: 120, counterparty: 'system:adjustments' }),
          expect.objectContaining({ kind: 'revoke', amount: -20, counterparty: 'system:adjustments' }),
        ]),
      );
    });

    it('never below zero, a reason required, bad input refused: nothing moves', async () => {
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 30);
      const before = await auditedWrites(t.db);
      const short = await coins('owner', reader.userId, {
        direction: 'take',
        amount: 31,
        reason: '扣回',
        requestId: requestId(),
      });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ result: false, code: 400, data: { field: 'amount' } });
      expect(short.json().msg).toContain('当前 30 阅币');
      const refusals: [object, string | null][] = [
        [grant(10, '   '), 'reason'],
        [grant(0), null],
        [grant(-5), null],
        [grant(1.5), null],
        [grant(1_000_001), null],
        [{ ...grant(10), requestId: 'short' }, null],
        [{ ...grant(10), requestId: 'has space here' }, null],
        [{ ...grant(10), direction: 'steal' }, null],
        [{ direction: 'grant', amount: 10, requestId: requestId() }, null],
      ];
      for (const [body, field] of refusals) {
        const res = await coins('owner', reader.userId, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().result).toBe(false);
        if (field) expect(res.json().data).toEqual({ field });
      }
      const unknown = await coins('owner', 2147483647, grant(10));
      expect(unknown.statusCode).toBe(404);
      expect((await holdings(t.db, reader.userId)).balance).toBe(30);
      expect(await auditedWrites(t.db)).toBe(before);
    });

    it('a double-clicked grant moves once; the same request id with another amount is refused', async () => {
      const reader = await registerVisitor(t);
      const body = grant(200);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => coins('finance', reader.userId, body)),
      );
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      expect(answers.filter((a) => a.json().data.repeated === false)).toHaveLength(1);
      expect(answers.every((a) => a.json().data.balance === 200)).toBe(true);
      expect((await holdings(t.db, reader.userId)).balance).toBe(200);
      expect(await auditsOf(reader.userId, 'reader.coins.%')).toHaveLength(1);
      const reused = await coins('finance', reader.userId, { ...body, amount: 201 });
      expect(reused.statusCode).toBe(409);
      const flipped = await coins('finance', reader.userId, { ...body, direction: 'take' });
      expect(flipped.statusCode).toBe(409);
      expect((await holdings(t.db, reader.userId)).balance).toBe(200);
    });

    it('two operators adjusting one reader at once lose and double nothing', async () => {
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      // 4 grants of 10 and 4 take-backs of 40 race on the reader's account (on PostgreSQL all wait on its lock).
      const bodies = [
        ...Array.from({ length: 4 }, () => grant(10)),
        ...Array.from({ length: 4 }, () => ({
          direction: 'take',
          amount: 40,
          reason: '扣回',
          requestId: requestId(),
        })),
      ];
      const answers = await whileAccountLocked(t.db, reader.userId, 8, () =>
        Promise.all(bodies.map((b, i) => coins(i % 2 === 0 ? 'owner' : 'finance', reader.userId, b))),
      );
      const grants = answers.slice(0, 4);
      const takes = answers.slice(4);
      for (const a of grants) expect(a.statusCode, a.body).toBe(200);
      const took = takes.filter((a) => a.statusCode === 200).length;
      for (const a of takes) expect([200, 400]).toContain(a.statusCode);
      // 140 coins at most: three take-backs of 40 fit whatever the order, a fourth never does.
      expect(took).toBeGreaterThanOrEqual(2);
      expect(took).toBeLessThanOrEqual(3);
      const { balance } = await holdings(t.db, reader.userId);
      expect(balance).toBe(100 + 40 - 40 * took);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(await auditsOf(reader.userId, 'reader.coins.%')).toHaveLength(4 + took);
      const rows = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.userId, reader.userId));
      expect(rows.filter((r) => r.kind === 'grant')).toHaveLength(4);
      expect(rows.filter((r) => r.kind === 'revoke')).toHaveLength(took);
    });

    it('a purchase racing a take-back never takes the balance below zero', async () => {
      const reader = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 50);
      const { chapters } = await newBook(t.db, { prices: [30] });
      const [buy, take] = await whileAccountLocked(t.db, reader.userId, 2, () =>
        Promise.all([
          t.app.inject({
            method: 'POST',
            url: `/api/book/chapter/buy?chapterId=${nth(chapters).id}`,
            headers: { cookie: reader.cookie },
          }),
          coins('owner', reader.userId, {
            direction: 'take',
            amount: 30,
            reason: '扣回',
            requestId: requestId(),
          }),
        ]),
      );
      const bought = buy?.json().result === true && buy.json().data.charged === 30;
      const taken = take?.statusCode === 200;
      expect(bought && taken).toBe(false);
      expect(bought || taken).toBe(true);
      expect((await holdings(t.db, reader.userId)).balance).toBe(20);
    });
  });

  describe('VIP days', () => {
    it('grants from now, shortens from the end, once per request; owner and finance only; audited', async () => {
      const reader = await registerVisitor(t);
      const url = `/api/admin/readers/${reader.userId}/vip`;
      for (const role of ['support', 'editor'] as const)
        expect(
          (await admin(role, 'POST', url, { days: 7, reason: '补偿', requestId: requestId() })).statusCode,
        ).toBe(403);
      const refused = await admin('owner', 'POST', url, { days: -3, reason: '缩短', requestId: requestId() });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().data).toEqual({ field: 'days' });
      expect(
        (await admin('owner', 'POST', url, { days: 0, reason: '零', requestId: requestId() })).statusCode,
      ).toBe(400);

      const id = requestId();
      const twice = await Promise.all([
        admin('finance', 'POST', url, { days: 30, reason: '活动补偿', requestId: id }),
        admin('finance', 'POST', url, { days: 30, reason: '活动补偿', requestId: id }),
      ]);
      for (const a of twice) expect(a.statusCode, a.body).toBe(200);
      expect(twice.filter((a) => a.json().data.repeated === false)).toHaveLength(1);
      const end = Date.parse(twice[0]?.json().data.vipEnd);
      expect(Math.abs(end - (Date.now() + 30 * 86_400_000))).toBeLessThan(120_000);
      expect(
        (await admin('finance', 'POST', url, { days: 31, reason: '改', requestId: id })).statusCode,
      ).toBe(409);

      const shorter = await admin('owner', 'POST', url, {
        days: -10,
        reason: '多送了',
        requestId: requestId(),
      });
      expect(Date.parse(shorter.json().data.vipEnd)).toBeCloseTo(end - 10 * 86_400_000, -4);
      // Shortening past now ends VIP now, never before.
      const ended = await admin('owner', 'POST', url, { days: -100, reason: '取消', requestId: requestId() });
      expect(Date.parse(ended.json().data.vipEnd)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(ended.json().data.vipEnd)).toBeGreaterThan(Date.now() - 120_000);

      const audits = await auditsOf(reader.userId, 'reader.vip.%');
      expect(audits.map((a) => a.action).sort()).toEqual([
        'reader.vip.grant',
        'reader.vip.shorten',
        'reader.vip.shorten',
      ]);
      expect(audits.find((a) => a.action === 'reader.vip.grant')).toMatchObject({
        actor: 'finance1',
        before: { vipEnd: null },
        after: { days: 30, reason: '活动补偿' },
      });
      expect(
        await t.db.select().from(vipAdjustments).where(eq(vipAdjustments.userId, reader.userId)),
      ).toHaveLength(3);
    });
  });

  describe('the account: sign out everywhere, block and unblock', () => {
    it('support and owner sign the reader out everywhere; finance and editor may not', async () => {
      const reader = await registerVisitor(t);
      // Seen from the moment the session was issued, before any other call.
      const seen = (await admin('support', 'GET', `/api/admin/readers/${reader.userId}`)).json().data
        .lastSeenAt;
      expect(Date.now() - Date.parse(seen)).toBeLessThan(60_000);
      const second = await registerVisitor(t);
      const url = `/api/admin/readers/${reader.userId}/sign-out`;
      for (const role of ['finance', 'editor'] as const)
        expect((await admin(role, 'POST', url, { reason: '疑似被盗' })).statusCode).toBe(403);
      expect((await admin('support', 'POST', url, { reason: ' ' })).statusCode).toBe(400);
      expect(await infoStatus(t, reader.cookie)).toBe(200);
      const res = await admin('support', 'POST', url, { reason: '读者称手机丢失' });
      expect(res.json()).toMatchObject({ result: true, data: { ended: 1 } });
      expect(await infoStatus(t, reader.cookie)).toBe(401);
      expect(await infoStatus(t, second.cookie)).toBe(200);
      const [entry] = await auditsOf(reader.userId, 'reader.sign-out');
      expect(entry).toMatchObject({
        actor: 'support1',
        before: { activeSessions: 1 },
        after: { activeSessions: 0, reason: '读者称手机丢失' },
      });
      expect(
        (await admin('owner', 'POST', '/api/admin/readers/2147483647/sign-out', { reason: 'x' })).statusCode,
      ).toBe(404);
    });

    it('a blocked reader reads free and owned chapters, is refused at buy and pay with a clear message; unblock restores', async () => {
      const reader: TestVisitor = await registerVisitor(t);
      await giveCoins(t.db, reader.userId, 100);
      const { bookId, chapters } = await newBook(t.db, { prices: [0, 10, 10] });
      const buy = (chapterId: number) =>
        t.app.inject({
          method: 'POST',
          url: `/api/book/chapter/buy?chapterId=${chapterId}`,
          headers: { cookie: reader.cookie },
        });
      const read = (number: number) =>
        t.app.inject({
          url: `/api/book/read_chapter?bookId=${bookId}&number=${number}`,
          headers: { cookie: reader.cookie },
        });
      const pay = () =>
        t.app.inject({
          url: applyUrl({ ...demo.coin600, payChannel: 'wechat_h5', rechargerAmount: 570 }),
          headers: { cookie: reader.cookie },
        });
      expect((await buy(nth(chapters, 1).id)).json().result).toBe(true);

      for (const role of ['finance', 'editor'] as const)
        expect(
          (await admin(role, 'POST', `/api/admin/readers/${reader.userId}/block`, { reason: '盗刷' }))
            .statusCode,
        ).toBe(403);
      expect(
        (await admin('support', 'POST', `/api/admin/readers/${reader.userId}/block`, { reason: '' }))
          .statusCode,
      ).toBe(400);
      const blocked = await admin('support', 'POST', `/api/admin/readers/${reader.userId}/block`, {
        reason: '疑似盗刷，待核实',
      });
      expect(blocked.statusCode, blocked.body).toBe(200);
      expect(blocked.json().data.blocked).toMatchObject({ reason: '疑似盗刷，待核实' });

      const refusedBuy = await buy(nth(chapters, 2).id);
      expect(refusedBuy.statusCode).toBe(403);
      expect(refusedBuy.json()).toMatchObject({ result: false, code: 403 });
      expect(refusedBuy.json().msg).toContain('暂停充值和购买');
      const refusedPay = await pay();
      expect(refusedPay.statusCode).toBe(403);
      expect(refusedPay.json().msg).toContain('暂停充值和购买');
      // A web channel navigates the browser to pay apply: there the refusal is a page to read, with the way back.
      const refusedPage = await t.app.inject({
        url: applyUrl({ ...demo.coin600, payChannel: 'wechat_h5', rechargerAmount: 570 }),
        headers: { cookie: reader.cookie, 'sec-fetch-mode': 'navigate' },
      });
      expect(refusedPage.statusCode).toBe(403);
      expect(refusedPage.headers['content-type']).toContain('text/html');
      expect(refusedPage.body).toContain('暂停充值和购买');
      expect(refusedPage.body).toContain('>返回</a>');
      expect(refusedPage.body).not.toContain('"result"');
      // Nothing charged, no order made; free and owned chapters still read.
      expect(await holdings(t.db, reader.userId)).toMatchObject({ balance: 90, claims: 1 });
      const orders = (await admin('owner', 'GET', `/api/admin/orders?userId=${reader.userId}`)).json().data;
      expect(orders.total).toBe(0);
      expect((await read(1)).json()).toMatchObject({ result: true, code: 200 });
      expect((await read(2)).json()).toMatchObject({ result: true, code: 200 });
      expect((await read(3)).json()).toMatchObject({ result: false, code: 999 });
      // A free chapter's buy answers as before (nothing to charge).
      expect((await buy(nth(chapters, 0).id)).json()).toMatchObject({ result: true, data: { charged: 0 } });

      const unblocked = await admin('owner', 'POST', `/api/admin/readers/${reader.userId}/unblock`, {
        reason: '已核实为本人',
      });
      expect(unblocked.json().data.blocked).toBeNull();
      expect((await buy(nth(chapters, 2).id)).json()).toMatchObject({ result: true, data: { charged: 10 } });
      expect((await pay()).statusCode).toBe(302);

      const entries = [
        ...(await auditsOf(reader.userId, 'reader.block')),
        ...(await auditsOf(reader.userId, 'reader.unblock')),
      ];
      expect(entries).toEqual([
        expect.objectContaining({
          actor: 'support1',
          before: { blocked: false, blockReason: null },
          after: { blocked: true, reason: '疑似盗刷，待核实' },
        }),
        expect.objectContaining({
          actor: 'owner1',
          before: { blocked: true, blockReason: '疑似盗刷，待核实' },
          after: { blocked: false, reason: '已核实为本人' },
        }),
      ]);
    });
  });
});
