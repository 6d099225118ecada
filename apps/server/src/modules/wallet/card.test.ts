// The monthly card (docs/decisions.md, "Monthly card"): bought as a pack through the sandbox (a notification that
// comes three times gives one card), extended by a second purchase, claimed once per China day across midnight and
// across two servers, refused with a clear 400 when none runs, shortened by a refund of its unclaimed days, and the
// console's daily reward (coins and tickets) and claims per day. The ledger's and the unlock ledger's invariants
// after every test.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import {
  auditLog,
  cardClaims,
  cardDays,
  ledgerTransfers,
  monthlyCards,
  payOrderEvents,
  readingTickets,
} from '../../db/schema/index.ts';
import { chinaDate } from '../../shared/china-time.ts';
import {
  applyWeb,
  balanceOf,
  demo,
  injectSend,
  notificationBody,
  orderByNo,
  postNotification,
} from '../payments/payments.test-support.ts';
import { createCardRepository } from './card.repository.ts';
import { cardState, claimCard, dayPlus, giveCardDays } from './card.service.ts';
import { expectUnlockInvariants } from './unlocks-test-kit.ts';
import { newBook } from './wallet-test-kit.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];

/** An instant in China time: `2026-03-01 23:59:59.999` → the UTC instant 8 hours earlier. */
const china = (text: string) => new Date(`${text.replace(' ', 'T')}+08:00`);
/** The demo's card pack (¥25.00) through wechat_h5 (9.5折). */
const CARD_PAID = 2375;
const STARTING_REWARD = { coins: 20, tickets: 0, ticketKind: 'read', ticketDays: 7, scope: null };

describeDb('monthly card', () => {
  let t: TestApp;
  let other: TestApp;
  let admin: Admin;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    // A second server on the same database.
    other = await createTestApp({ seed: false, env: manyVisitorsEnv, db: t.db });
    ({ admin } = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']));
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
    await expectUnlockInvariants(t.db);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const deps = () => ({ repo: createCardRepository(t.db) });
  const asReader = (app: TestApp, reader: TestVisitor, method: 'GET' | 'POST', url: string) =>
    app.app.inject({ method, url, headers: { cookie: reader.cookie } });
  const cardOf = async (reader: TestVisitor, app = t) =>
    (await asReader(app, reader, 'GET', '/api/user/card')).json();
  const claim = (reader: TestVisitor, app = t) => asReader(app, reader, 'POST', '/api/user/card/claim');
  const claimsOf = (userId: number) =>
    t.db.select().from(cardClaims).where(eq(cardClaims.userId, userId)).orderBy(cardClaims.day);

  /** A card order paid through the sandbox's cashier and its notification. */
  async function boughtCard(reader: TestVisitor) {
    const { order, cashierPath } = await applyWeb(t, reader.cookie, demo.card30, CARD_PAID);
    await t.app.inject({ method: 'POST', url: `${cashierPath}/confirm` });
    await t.app.ports.sandbox.deliverDueNotifications(injectSend(t));
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('paid');
    return order;
  }

  describe('buying', () => {
    it('the card pack is offered with the VIP packs, and a notification that comes three times gives one card of 30 days from today', async () => {
      const reader = await registerVisitor(t);
      const centre = (await asReader(t, reader, 'GET', '/api/user/recharge')).json();
      expect(centre.data.payConfigs).toContainEqual(
        expect.objectContaining({ id: 8, type: 'card', amountLevel: 2500, itemCount: 30, title: '月卡' }),
      );
      expect(await cardOf(reader)).toMatchObject({
        result: true,
        data: { active: false, daysLeft: 0, lastDay: null, claimedToday: false, reward: { coins: 20 } },
      });
      const refused = (await claim(reader)).json();
      expect(refused).toMatchObject({
        result: false,
        code: 400,
        msg: '月卡未开通或已到期，开通月卡后每天可领取奖励',
      });
      expect(await claimsOf(reader.userId)).toEqual([]);

      const { order } = await applyWeb(t, reader.cookie, demo.card30, CARD_PAID);
      expect(order).toMatchObject({
        purpose: 'card',
        amountLevel: 2500,
        payAmount: CARD_PAID,
        itemCount: 30,
      });
      const key = t.config.sandboxPayKey;
      const tradeNo = `SB${randomBytes(12).toString('hex').toUpperCase()}`;
      const body = notificationBody(key, { orderNo: order.orderNo, amount: String(CARD_PAID), tradeNo });
      // Once, then twice at once (the gateway retries while it waits for an acknowledgement).
      const answers = [await postNotification(t, 'wechat_h5', body)];
      answers.push(...(await Promise.all([1, 2].map(() => postNotification(t, 'wechat_h5', body)))));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      expect(await orderByNo(t.db, order.orderNo)).toMatchObject({ status: 'paid', payAmount: CARD_PAID });

      const today = chinaDate(new Date());
      expect(await t.db.select().from(cardDays).where(eq(cardDays.userId, reader.userId))).toMatchObject([
        { id: `order:${order.orderNo}`, days: 30, lastDayBefore: null, lastDayAfter: dayPlus(today, 29) },
      ]);
      expect((await cardOf(reader)).data).toEqual({
        today,
        active: true,
        daysLeft: 30,
        lastDay: dayPlus(today, 29),
        claimedToday: false,
        reward: { coins: 20, tickets: 0, ticketKind: 'read', ticketDays: 7 },
      });
      // No coins move for a card order: only its claims pay.
      expect(await balanceOf(t.db, reader.userId)).toBe(0);
    });

    it('buying again while the card runs adds its days after the last one', async () => {
      const reader = await registerVisitor(t);
      await boughtCard(reader);
      await boughtCard(reader);
      const today = chinaDate(new Date());
      expect((await cardOf(reader)).data).toMatchObject({
        active: true,
        daysLeft: 60,
        lastDay: dayPlus(today, 59),
      });

      // A card that has run out starts again from the day of the purchase.
      const lapsed = await registerVisitor(t);
      await t.db.transaction((tx) =>
        giveCardDays(deps(), tx, {
          orderNo: `T${randomUUID()}`,
          userId: lapsed.userId,
          days: 30,
          at: china('2026-01-01 10:00'),
        }),
      );
      expect((await cardOf(lapsed)).data).toMatchObject({
        active: false,
        daysLeft: 0,
        lastDay: '2026-01-30',
      });
      expect((await claim(lapsed)).json()).toMatchObject({ result: false, code: 400 });
      await boughtCard(lapsed);
      expect((await cardOf(lapsed)).data).toMatchObject({
        active: true,
        daysLeft: 30,
        lastDay: dayPlus(today, 29),
      });
    });
  });

  describe('claiming', () => {
    it('claims today’s reward once: 领取成功, 20 coins, then 今天已经领取过了 on the other server', async () => {
      const reader = await registerVisitor(t);
      await boughtCard(reader);
      const first = (await claim(reader)).json();
      expect(first).toMatchObject({
        result: true,
        msg: '领取成功',
        data: { claimed: true, claimedToday: true, active: true, daysLeft: 30, reward: { coins: 20 } },
      });
      expect(await balanceOf(t.db, reader.userId)).toBe(20);
      const again = (await claim(reader, other)).json();
      expect(again).toMatchObject({
        result: true,
        msg: '今天已经领取过了',
        data: { claimed: false, claimedToday: true },
      });
      expect(await balanceOf(t.db, reader.userId)).toBe(20);
      expect((await cardOf(reader)).data).toMatchObject({ claimedToday: true, daysLeft: 30 });
      const transfers = await t.db
        .select()
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.userId, reader.userId));
      expect(transfers.map((x) => [x.id.split(':')[0], x.kind, x.amount])).toEqual([['card', 'bonus', 20]]);
    });

    it('two tabs on two servers claiming at once make one claim and one reward', async () => {
      const reader = await registerVisitor(t);
      await boughtCard(reader);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => claim(reader, i % 2 === 0 ? t : other)),
      );
      const data = answers.map((a) => a.json().data);
      expect(data.filter((d) => d.claimed)).toHaveLength(1);
      expect(data.every((d) => d.claimedToday)).toBe(true);
      expect(await claimsOf(reader.userId)).toHaveLength(1);
      expect(await balanceOf(t.db, reader.userId)).toBe(20);
    });

    it('China midnight decides the day; the card’s last day may be claimed, the day after is refused and pays nothing', async () => {
      const reader = await registerVisitor(t);
      await t.db.transaction((tx) =>
        giveCardDays(deps(), tx, {
          orderNo: `T${randomUUID()}`,
          userId: reader.userId,
          days: 2,
          at: china('2026-03-01 23:00'),
        }),
      );
      const at = (text: string) => claimCard(deps(), { userId: reader.userId, at: china(text) });
      expect(await at('2026-03-01 23:59:59.999')).toMatchObject({
        claimed: true,
        today: '2026-03-01',
        daysLeft: 2,
      });
      expect(await at('2026-03-01 23:59:59.999')).toMatchObject({ claimed: false });
      expect(await at('2026-03-02 00:00:00.000')).toMatchObject({
        claimed: true,
        today: '2026-03-02',
        daysLeft: 1,
      });
      expect(await cardState(deps(), { userId: reader.userId, at: china('2026-03-03 00:00') })).toMatchObject(
        {
          active: false,
          daysLeft: 0,
          claimedToday: false,
        },
      );
      await expect(at('2026-03-03 00:00:00.000')).rejects.toMatchObject({ httpStatus: 400 });
      expect((await claimsOf(reader.userId)).map((c) => c.day)).toEqual(['2026-03-01', '2026-03-02']);
      expect(await balanceOf(t.db, reader.userId)).toBe(40);
    });
  });

  describe('refunds', () => {
    it('a refund ends the card early by its days not yet claimed: today’s claim and its coins stay, once whatever the refunds', async () => {
      const reader = await registerVisitor(t);
      const order = await boughtCard(reader);
      expect((await claim(reader)).json().data.claimed).toBe(true);
      const refund = (role: 'owner' | 'finance', coins: 'keep' | 'take') =>
        admin(role, 'POST', `/api/admin/orders/${order.orderNo}/refunds`, {
          amount: 1000,
          reason: '读者申请退款',
          requestId: randomUUID(),
          coins,
        });
      const [a, b] = await Promise.all([refund('owner', 'take'), refund('finance', 'keep')]);
      expect(a.json().result && b.json().result, `${a.body} ${b.body}`).toBe(true);
      const today = chinaDate(new Date());
      expect((await cardOf(reader)).data).toMatchObject({
        active: true,
        daysLeft: 1,
        lastDay: today,
        claimedToday: true,
      });
      expect(await balanceOf(t.db, reader.userId)).toBe(20);
      expect(
        await t.db
          .select()
          .from(cardDays)
          .where(eq(cardDays.id, `refund:${order.orderNo}`)),
      ).toMatchObject([{ days: -29, lastDayBefore: dayPlus(today, 29), lastDayAfter: today }]);
      const events = await t.db.select().from(payOrderEvents).where(eq(payOrderEvents.orderId, order.id));
      expect(
        events
          .filter((e) => e.source === 'refund-coins')
          .map((e) => e.detail.split('：')[1])
          .sort(),
      ).toEqual(['月卡天数已在此前的退款中扣回', '月卡未领取的天数已扣回（至多 30 天）']);
      // Tomorrow there is no card.
      const tomorrow = new Date(Date.now() + 86_400_000);
      expect(await cardState(deps(), { userId: reader.userId, at: tomorrow })).toMatchObject({
        active: false,
      });
      await expect(claimCard(deps(), { userId: reader.userId, at: tomorrow })).rejects.toMatchObject({
        httpStatus: 400,
      });
    });

    it('of two cards the refunded one’s unclaimed days go: 60 days, claimed today, refund of the first → 31 left', async () => {
      const reader = await registerVisitor(t);
      const first = await boughtCard(reader);
      await boughtCard(reader);
      await claim(reader);
      const done = await admin('owner', 'POST', `/api/admin/orders/${first.orderNo}/refunds`, {
        amount: CARD_PAID,
        reason: '重复购买',
        requestId: randomUUID(),
      });
      expect(done.json(), done.body).toMatchObject({ result: true, data: { refund: { state: 'success' } } });
      expect((await cardOf(reader)).data).toMatchObject({ daysLeft: 31, claimedToday: true });
    });
  });

  describe('the console', () => {
    it('owners and finance set the daily reward (audited); tickets are paid on the next claim; support reads, editors get 403', async () => {
      expect((await admin('support', 'GET', '/api/admin/card/reward')).json()).toMatchObject({
        result: true,
        data: STARTING_REWARD,
      });
      expect((await admin('editor', 'GET', '/api/admin/card/reward')).json()).toMatchObject({ code: 403 });
      const reward = { coins: 0, tickets: 2, ticketKind: 'presale', ticketDays: 3, scope: null };
      expect((await admin('support', 'POST', '/api/admin/card/reward', reward)).json()).toMatchObject({
        code: 403,
      });
      const bad = await admin('finance', 'POST', '/api/admin/card/reward', { ...reward, tickets: 11 });
      expect(bad.json()).toMatchObject({ result: false, code: 400, data: { field: 'tickets' } });
      const missing = await admin('finance', 'POST', '/api/admin/card/reward', {
        ...reward,
        scope: [987654],
      });
      expect(missing.json()).toMatchObject({ result: false, code: 400, data: { field: 'scope' } });
      expect((await admin('owner', 'GET', '/api/admin/card/reward')).json().data).toEqual(STARTING_REWARD);

      const book = await newBook(t.db, { prices: [0] });
      const scoped = { ...reward, scope: [book.bookId] };
      const saved = await admin('finance', 'POST', '/api/admin/card/reward', scoped);
      expect(saved.json()).toMatchObject({ result: true, msg: '月卡奖励已保存', data: scoped });
      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'card.reward'))
        .orderBy(auditLog.id);
      expect(entry).toMatchObject({ actor: 'finance1', before: STARTING_REWARD, after: scoped });

      try {
        const reader = await registerVisitor(t);
        await boughtCard(reader);
        const claimed = (await claim(reader)).json();
        expect(claimed.data).toMatchObject({
          claimed: true,
          reward: { coins: 0, tickets: 2, ticketKind: 'presale', ticketDays: 3 },
        });
        const tickets = await t.db
          .select()
          .from(readingTickets)
          .where(and(eq(readingTickets.userId, reader.userId), eq(readingTickets.source, 'card')));
        expect(tickets).toHaveLength(2);
        expect(tickets.every((x) => x.kind === 'presale' && x.scopeBookIds?.[0] === book.bookId)).toBe(true);
        const days = (tickets[0]?.expiresAt.getTime() ?? 0) - Date.now();
        expect(days).toBeGreaterThan(2.9 * 86_400_000);
        expect(await balanceOf(t.db, reader.userId)).toBe(0);

        const counts = (await admin('support', 'GET', '/api/admin/card/claims?days=3')).json();
        const today = chinaDate(new Date());
        expect(counts.data.list.map((d: { day: string }) => d.day)).toEqual([
          today,
          chinaDate(new Date(), -1),
          chinaDate(new Date(), -2),
        ]);
        const own = await t.db.select().from(cardClaims).where(eq(cardClaims.day, today));
        expect(counts.data.list[0]).toMatchObject({ claims: own.length, tickets: 2 });
        const running = await t.db.select().from(monthlyCards);
        expect(counts.data.running).toBe(running.filter((c) => c.lastDay >= today).length);
      } finally {
        await admin('owner', 'POST', '/api/admin/card/reward', STARTING_REWARD);
      }
    });

    it('the revenue per branch counts card orders as their own purpose and in the total', async () => {
      const reader = await registerVisitor(t);
      await boughtCard(reader);
      const res = await admin('finance', 'GET', '/api/admin/revenue');
      expect(res.statusCode, res.body).toBe(200);
      const { total } = res.json().data;
      expect(total.card.paidCount).toBeGreaterThanOrEqual(1);
      expect(total.card.paidAmount).toBe(total.card.paidCount * CARD_PAID);
      expect(total.all.paidAmount).toBe(total.coin.paidAmount + total.vip.paidAmount + total.card.paidAmount);
      const dashboard = await admin('finance', 'GET', '/api/admin/dashboard');
      expect(dashboard.statusCode, dashboard.body).toBe(200);
    });
  });
});
