// Daily check-in (docs/decisions.md, "Daily check-in"): one claim per reader per China day whatever tabs or servers
// do, the streak across China midnight, the seven-day cycle's rewards in coins (the ledger) and tickets (source
// checkin), and the console's rewards and claims per day for every role. The ledger's and the unlock ledger's
// invariants after every test.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditedWrites, consoleOperators, type Role } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import {
  auditLog,
  checkinClaims,
  checkinRewards,
  ledgerTransfers,
  readingTickets,
} from '../../db/schema/index.ts';
import { createCheckinRepository } from './checkin.repository.ts';
import { checkinState, claimCheckin } from './checkin.service.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { newBook } from './wallet-test-kit.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];
const ROLES: readonly Role[] = ['owner', 'editor', 'finance', 'support'];

/** The seven days as the migration starts them: coins each day, one read ticket on day 7. */
const startingWeek = [5, 5, 10, 5, 5, 10, 0].map((coins, i) => ({
  day: i + 1,
  coins,
  tickets: i === 6 ? 1 : 0,
  ticketKind: 'read' as const,
  ticketDays: 7,
  scope: null,
}));

/** An instant in China time: `2026-03-01 23:59:59.999` → the UTC instant 8 hours earlier. */
const china = (text: string) => new Date(`${text.replace(' ', 'T')}+08:00`);

describeDb('daily check-in', () => {
  let t: TestApp;
  let other: TestApp;
  let admin: Admin;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
    // A second server on the same database.
    other = await createTestApp({ seed: false, env: manyVisitorsEnv, db: t.db });
    ({ admin } = await consoleOperators(t, ROLES));
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
    await expectUnlockInvariants(t.db);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const deps = () => ({ repo: createCheckinRepository(t.db) });
  const asReader = (app: TestApp, reader: TestVisitor, method: 'GET' | 'POST', url: string) =>
    app.app.inject({ method, url, headers: { cookie: reader.cookie } });
  const balance = async (reader: TestVisitor) =>
    (await asReader(t, reader, 'GET', '/api/user/info')).json().data.avaliableAmount as number;
  const claimsOf = (userId: number) =>
    t.db.select().from(checkinClaims).where(eq(checkinClaims.userId, userId)).orderBy(checkinClaims.day);
  const ticketsOf = (userId: number) =>
    t.db
      .select()
      .from(readingTickets)
      .where(and(eq(readingTickets.userId, userId), eq(readingTickets.source, 'checkin')));

  describe('a reader', () => {
    it('a visitor checks in once a day: the reward in coins, 已签到, and a second claim pays nothing', async () => {
      const reader = await registerVisitor(t);
      const before = (await asReader(t, reader, 'GET', '/api/user/checkin')).json();
      expect(before).toMatchObject({ result: true, code: 200, data: { claimedToday: false, streak: 0 } });
      expect(before.data.days.map((d: { state: string }) => d.state)).toEqual([
        'today',
        'later',
        'later',
        'later',
        'later',
        'later',
        'later',
      ]);
      expect(before.data.days[0].reward).toEqual({ coins: 5, tickets: 0, ticketKind: 'read', ticketDays: 7 });

      const first = (await asReader(t, reader, 'POST', '/api/user/checkin/claim')).json();
      expect(first).toMatchObject({
        result: true,
        msg: '签到成功',
        data: { claimed: true, claimedToday: true, streak: 1, reward: { coins: 5, tickets: 0 } },
      });
      expect(first.data.days[0].state).toBe('today');
      expect(await balance(reader)).toBe(5);

      const again = (await asReader(other, reader, 'POST', '/api/user/checkin/claim')).json();
      expect(again).toMatchObject({
        result: true,
        msg: '今天已经签到过了',
        data: { claimed: false, claimedToday: true, streak: 1, reward: { coins: 5 } },
      });
      expect(await balance(reader)).toBe(5);
      expect(await claimsOf(reader.userId)).toHaveLength(1);
    });

    it('without a session: 401, nothing claimed', async () => {
      for (const [method, url] of [
        ['GET', '/api/user/checkin'],
        ['POST', '/api/user/checkin/claim'],
      ] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ result: false, code: 401 });
      }
    });

    it('two tabs on two servers claiming at once make one claim and one reward', async () => {
      const reader = await registerVisitor(t);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          asReader(i % 2 === 0 ? t : other, reader, 'POST', '/api/user/checkin/claim'),
        ),
      );
      const data = answers.map((a) => a.json().data);
      expect(data.filter((d) => d.claimed)).toHaveLength(1);
      expect(data.every((d) => d.claimedToday && d.streak === 1)).toBe(true);
      expect(await claimsOf(reader.userId)).toHaveLength(1);
      const transfers = await t.db
        .select()
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.userId, reader.userId));
      expect(transfers.map((x) => [x.kind, x.amount])).toEqual([['bonus', 5]]);
      expect(await balance(reader)).toBe(5);
    });

    it('China midnight decides the day: 23:59:59.999 and 00:00 are two days running; a missed day restarts the streak', async () => {
      const reader = await registerVisitor(t);
      const claim = (at: string) => claimCheckin(deps(), { userId: reader.userId, at: china(at) });

      expect(await claim('2026-03-01 23:59:59.999')).toMatchObject({
        claimed: true,
        today: '2026-03-01',
        streak: 1,
      });
      const next = await claim('2026-03-02 00:00:00.000');
      expect(next).toMatchObject({ claimed: true, today: '2026-03-02', streak: 2, reward: { coins: 5 } });
      expect(next.days.map((d) => d.state)).toEqual([
        'claimed',
        'today',
        'later',
        'later',
        'later',
        'later',
        'later',
      ]);
      // The last moment of that China day is still that day: claimed already.
      expect(await claim('2026-03-02 23:59:59.999')).toMatchObject({ claimed: false, streak: 2 });
      // The state on the next day, before its claim: the streak holds and day 3 is today's.
      const waiting = await checkinState(deps(), {
        userId: reader.userId,
        at: china('2026-03-03 08:00:00.000'),
      });
      expect(waiting).toMatchObject({ claimedToday: false, streak: 2 });
      expect(waiting.days[2]?.state).toBe('today');
      // 03-03 missed: on 03-04 the state has restarted, and the claim pays day 1 again.
      const missed = await checkinState(deps(), {
        userId: reader.userId,
        at: china('2026-03-04 00:00:00.000'),
      });
      expect(missed).toMatchObject({ claimedToday: false, streak: 0 });
      expect(await claim('2026-03-04 00:00:00.000')).toMatchObject({
        claimed: true,
        streak: 1,
        reward: { coins: 5 },
      });

      expect((await claimsOf(reader.userId)).map((c) => [c.day, c.streak, c.cycleDay])).toEqual([
        ['2026-03-01', 1, 1],
        ['2026-03-02', 2, 2],
        ['2026-03-04', 1, 1],
      ]);
      expect(await balance(reader)).toBe(15);
    });

    it('day 7 pays a reading ticket of source checkin, day 8 pays day 1 again', async () => {
      const reader = await registerVisitor(t);
      let last: Awaited<ReturnType<typeof claimCheckin>> | undefined;
      for (let day = 1; day <= 8; day++)
        last = await claimCheckin(deps(), {
          userId: reader.userId,
          at: china(`2026-04-0${day} 12:00:00.000`),
        });
      expect(last).toMatchObject({ streak: 8, reward: { coins: 5, tickets: 0 } });
      expect(last?.days.map((d) => d.state)).toEqual([
        'today',
        'later',
        'later',
        'later',
        'later',
        'later',
        'later',
      ]);
      const tickets = await ticketsOf(reader.userId);
      const day7 = (await claimsOf(reader.userId)).find((c) => c.day === '2026-04-07');
      expect(tickets.map((x) => [x.grantId, x.kind, x.reason])).toEqual([
        [`checkin:${day7?.id}:1`, 'read', '签到奖励 2026-04-07'],
      ]);
      expect(tickets[0]?.expiresAt.toISOString()).toBe(
        new Date(china('2026-04-07 12:00:00.000').getTime() + 7 * 86_400_000).toISOString(),
      );
      expect(await balance(reader)).toBe(5 + 5 + 10 + 5 + 5 + 10 + 0 + 5);
    });
  });

  describe('the console', () => {
    const rewardsUrl = '/api/admin/checkin/rewards';

    it('every call: allowed roles reach it, others get 403, strangers 401; a refused save changes nothing', async () => {
      const calls: ['GET' | 'POST', string, object | undefined, readonly Role[]][] = [
        ['GET', rewardsUrl, undefined, ['owner', 'finance', 'support']],
        ['POST', rewardsUrl, { days: startingWeek }, ['owner', 'finance']],
        ['GET', '/api/admin/checkin/claims?days=7', undefined, ['owner', 'finance', 'support']],
      ];
      for (const [method, url, payload, allowed] of calls) {
        for (const role of ROLES) {
          const writes = await auditedWrites(t.db);
          const res = await admin(role, method, url, payload);
          if (allowed.includes(role)) {
            expect(res.statusCode, `${role} ${method} ${url}: ${res.body}`).toBe(200);
            expect(res.json()).toMatchObject({ result: true, code: 200 });
          } else {
            expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
            expect(res.json()).toMatchObject({ result: false, code: 403 });
            expect(await auditedWrites(t.db)).toBe(writes);
          }
        }
        const anonymous = await t.app.inject({
          method,
          url,
          headers: { origin: t.config.trustedOrigins[0] as string },
          ...(payload ? { payload } : {}),
        });
        expect(anonymous.statusCode).toBe(401);
      }
      expect((await admin('owner', 'GET', rewardsUrl)).json().data.days).toEqual(startingWeek);
    });

    it('finance sets the week: read back, audited before and after, and readers are paid by it', async () => {
      const { bookId } = await newBook(t.db, { prices: [0, 10] });
      const week = startingWeek.map((d) =>
        d.day === 1
          ? { ...d, coins: 0, tickets: 2, ticketKind: 'presale' as const, ticketDays: 3, scope: [bookId] }
          : d,
      );
      const saved = await admin('finance', 'POST', rewardsUrl, { days: week });
      expect(saved.json()).toMatchObject({ result: true, msg: '签到奖励已保存', data: { days: week } });
      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'checkin.rewards'), eq(auditLog.actor, 'finance1')))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(entry?.before).toEqual({ days: startingWeek });
      expect(entry?.after).toEqual({ days: week });

      const reader = await registerVisitor(t);
      const claimed = (await asReader(t, reader, 'POST', '/api/user/checkin/claim')).json().data;
      expect(claimed.reward).toEqual({ coins: 0, tickets: 2, ticketKind: 'presale', ticketDays: 3 });
      const tickets = await ticketsOf(reader.userId);
      expect(tickets.map((x) => [x.kind, x.scopeBookIds])).toEqual([
        ['presale', [bookId]],
        ['presale', [bookId]],
      ]);
      expect(await balance(reader)).toBe(0);
      // The reader's ticket list shows them.
      const list = (await asReader(t, reader, 'GET', '/api/user/tickets')).json().data.list;
      expect(list).toHaveLength(2);

      // Back to the starting week for the other tests.
      expect((await admin('owner', 'POST', rewardsUrl, { days: startingWeek })).statusCode).toBe(200);
    });

    it('bad input answers a Chinese 400 naming the field and changes nothing', async () => {
      const bad: [object, string][] = [
        [{ days: startingWeek.map((d) => (d.day === 2 ? { ...d, coins: 1001 } : d)) }, 'coins'],
        [{ days: startingWeek.map((d) => (d.day === 3 ? { ...d, tickets: 11 } : d)) }, 'tickets'],
        [{ days: startingWeek.map((d) => (d.day === 7 ? { ...d, ticketDays: 0 } : d)) }, 'ticketDays'],
        [{ days: startingWeek.map((d) => (d.day === 7 ? { ...d, scope: [2147483646] } : d)) }, 'scope'],
        [{ days: startingWeek.map((d) => (d.day === 7 ? { ...d, day: 1 } : d)) }, 'days'],
      ];
      const writes = await auditedWrites(t.db);
      for (const [body, field] of bad) {
        const res = await admin('owner', 'POST', rewardsUrl, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().msg, field).toMatch(/[\u4e00-\u9fff]/);
        expect(res.json().data).toMatchObject({ field });
      }
      expect(await auditedWrites(t.db)).toBe(writes);
      expect(await t.db.select().from(checkinRewards)).toHaveLength(7);
      expect((await admin('owner', 'GET', rewardsUrl)).json().data.days).toEqual(startingWeek);
    });

    it('claims per China day: the last N days newest first, days without claims as zeros', async () => {
      const reader = await registerVisitor(t);
      await asReader(t, reader, 'POST', '/api/user/checkin/claim');
      const { list } = (await admin('support', 'GET', '/api/admin/checkin/claims?days=3')).json().data;
      expect(list).toHaveLength(3);
      const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
      expect(list[0]).toMatchObject({ day: today });
      expect(list[0].claims).toBeGreaterThanOrEqual(1);
      expect(list[0].firstDays).toBeGreaterThanOrEqual(1);
      expect(list[0].coins).toBeGreaterThanOrEqual(5);
      const refused = await admin('owner', 'GET', '/api/admin/checkin/claims?days=91');
      expect(refused.statusCode).toBe(400);
    });
  });
});
