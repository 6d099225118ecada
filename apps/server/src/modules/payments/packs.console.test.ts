// The console's packs, channels and the first-recharge offer (docs/decisions.md, "Packs, channels and
// offers"): every call for every role, audited with before and after; a change applies to new orders only (an order
// is paid and checked at its own amount); the offer credited once, on a reader's first paid order only.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditedWrites, consoleOperators, type Role } from '../../../test/console-kit.ts';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor } from '../../../test/visitors.ts';
import { auditLog, ledgerTransfers, payChannels, payConfigs } from '../../db/schema/index.ts';
import {
  applyUrl,
  applyWeb,
  balanceOf,
  notificationBody,
  orderByNo,
  postNotification,
} from './payments.test-support.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];
const ROLES: readonly Role[] = ['owner', 'editor', 'finance', 'support'];
const HOUR = 3_600_000;

describeDb('the console’s packs, channels and offers', () => {
  let t: TestApp;
  let admin: Admin;
  let key: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ env: manyVisitorsEnv });
    ({ admin } = await consoleOperators(t, ROLES));
    key = t.config.sandboxPayKey;
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  /** A coin pack of the console's form, at `amount` cents (wechat_h5 pays 95% of it). */
  const coinPack = (amount: number, extra: object = {}) => ({
    amountLevel: amount,
    itemCount: amount,
    presentCount: 0,
    title: `${amount}阅币`,
    configDesc: '',
    isRecommend: false,
    initiatorCode: 'default',
    sort: 50,
    active: true,
    firstPayBonus: 0,
    firstPayStartsAt: null,
    firstPayEndsAt: null,
    ...extra,
  });
  const addPack = async (amount: number, extra: object = {}) => {
    const res = await admin('finance', 'POST', '/api/admin/packs', {
      type: 'coin',
      ...coinPack(amount, extra),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as ReturnType<typeof coinPack> & { id: number };
  };
  const editPack = (role: Role, id: number, body: object) =>
    admin(role, 'POST', `/api/admin/packs/${id}`, body);
  const running = () => ({
    firstPayStartsAt: new Date(Date.now() - HOUR).toISOString(),
    firstPayEndsAt: new Date(Date.now() + HOUR).toISOString(),
  });
  const rechargeCentre = async (cookie: string) => {
    const res = await t.app.inject({ url: '/api/user/recharge?appType=wap_browser', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.payConfigs as { id: number; presentCount: number; firstPayBonus?: number }[];
  };
  const pay = (
    orderNo: string,
    amount: number,
    tradeNo = `SB${randomBytes(12).toString('hex').toUpperCase()}`,
  ) => postNotification(t, 'wechat_h5', notificationBody(key, { orderNo, amount: String(amount), tradeNo }));
  const coinsOf = (id: number) => ({ payPurposeId: id, payPurpose: 'coin' as const });

  it('every call: allowed roles reach it, others get 403 and strangers 401; a refused call changes nothing', async () => {
    const packs = await t.db.select().from(payConfigs);
    const channels = await t.db.select().from(payChannels);
    const nobody = 2147483647;
    const calls: ['GET' | 'POST', string, object | undefined, Role[], number][] = [
      ['GET', '/api/admin/packs', undefined, ['owner', 'finance', 'support'], 200],
      [
        'POST',
        '/api/admin/packs',
        { type: 'coin', ...coinPack(100, { firstPayBonus: 5 }) },
        ['owner', 'finance'],
        400,
      ],
      ['POST', `/api/admin/packs/${nobody}`, coinPack(100), ['owner', 'finance'], 404],
      [
        'POST',
        '/api/admin/pay-channels/nobody',
        { active: true, discountPercent: 90, initiatorCode: 'default', sort: 1 },
        ['owner', 'finance'],
        404,
      ],
    ];
    const writes = await auditedWrites(t.db);
    for (const [method, url, payload, allowed, answer] of calls) {
      for (const role of ROLES) {
        const res = await admin(role, method, url, payload);
        const expected = allowed.includes(role) ? answer : 403;
        expect(res.statusCode, `${role} ${method} ${url}: ${res.body}`).toBe(expected);
        expect(res.json()).toMatchObject({ result: expected === 200, code: expected });
      }
      const anonymous = await t.app.inject({
        method,
        url,
        headers: { origin: t.config.trustedOrigins[0] as string },
        ...(payload ? { payload } : {}),
      });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    // A real pack and channel, edited by the roles that may not: refused, unchanged.
    for (const role of ['editor', 'support'] as const) {
      expect((await editPack(role, 2, coinPack(1))).statusCode).toBe(403);
      const res = await admin(role, 'POST', '/api/admin/pay-channels/wechat_h5', {
        active: false,
        discountPercent: 50,
        initiatorCode: 'default',
        sort: 1,
      });
      expect(res.statusCode).toBe(403);
    }
    expect(await auditedWrites(t.db)).toBe(writes);
    expect(await t.db.select().from(payConfigs)).toEqual(packs);
    expect(await t.db.select().from(payChannels)).toEqual(channels);
  });

  it('owner and finance edit a pack and a channel, audited with before and after; the recharge centre follows', async () => {
    const reader = await registerVisitor(t);
    const pack = await addPack(1200);
    const [added] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `pack:${pack.id}`));
    expect(added).toMatchObject({ action: 'pack.add', actor: 'finance1', before: null });
    expect(added?.after).toMatchObject({ amountLevel: 1200, presentCount: 0 });

    for (const [role, bonus] of [
      ['owner', 120],
      ['finance', 150],
    ] as const) {
      const res = await editPack(role, pack.id, coinPack(1200, { presentCount: bonus, isRecommend: true }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ id: pack.id, presentCount: bonus, isRecommend: true });
      expect((await rechargeCentre(reader.cookie)).find((p) => p.id === pack.id)?.presentCount).toBe(bonus);
    }
    const edits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, `pack:${pack.id}`), eq(auditLog.action, 'pack.edit')))
      .orderBy(auditLog.id);
    expect(
      edits.map((e) => [
        e.actor,
        (e.before as { presentCount: number }).presentCount,
        (e.after as { presentCount: number }).presentCount,
      ]),
    ).toEqual([
      ['owner1', 0, 120],
      ['finance1', 120, 150],
    ]);

    // Off: gone from the recharge centre, and an order for it is refused.
    expect((await editPack('finance', pack.id, coinPack(1200, { active: false }))).statusCode).toBe(200);
    expect((await rechargeCentre(reader.cookie)).some((p) => p.id === pack.id)).toBe(false);
    const refused = await t.app.inject({
      url: applyUrl({ ...coinsOf(pack.id), payChannel: 'wechat_h5', rechargerAmount: 1140 }),
      headers: { cookie: reader.cookie },
    });
    expect(refused.statusCode).toBe(400);

    // A channel: its discount applies to new orders; turned off, it is no longer offered.
    const before = await t.db.select().from(payChannels).where(eq(payChannels.subTypeCode, 'unionpay'));
    const channel = await admin('owner', 'POST', '/api/admin/pay-channels/unionpay', {
      active: false,
      discountPercent: 90,
      initiatorCode: 'default',
      sort: 9,
    });
    expect(channel.statusCode, channel.body).toBe(200);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.target, 'pay-channel:unionpay'));
    expect(audit).toMatchObject({
      action: 'pay-channel.edit',
      before: { active: true, discountPercent: before[0]?.discountPercent, sort: before[0]?.sort },
      after: { active: false, discountPercent: 90, sort: 9 },
    });
    const res = await t.app.inject({
      url: '/api/user/recharge?appType=wap_browser',
      headers: { cookie: reader.cookie },
    });
    expect(res.json().data.subTypes.map((s: { subTypeCode: string }) => s.subTypeCode)).not.toContain(
      'unionpay',
    );
  });

  it('refuses a half or reversed offer window and a bonus on a VIP pack with a 400, changing nothing', async () => {
    const pack = await addPack(1300);
    const writes = await auditedWrites(t.db);
    const now = Date.now();
    const bad = [
      coinPack(1300, {
        firstPayBonus: 100,
        firstPayStartsAt: new Date(now).toISOString(),
        firstPayEndsAt: null,
      }),
      coinPack(1300, {
        firstPayBonus: 100,
        firstPayStartsAt: new Date(now).toISOString(),
        firstPayEndsAt: new Date(now - HOUR).toISOString(),
      }),
      coinPack(1300, { amountLevel: 0 }),
      coinPack(1300, { presentCount: -1 }),
    ];
    for (const body of bad) {
      const res = await editPack('owner', pack.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().result).toBe(false);
    }
    const vip = await editPack('owner', 5, { ...coinPack(3000), itemCount: 30, presentCount: 10 });
    expect(vip.statusCode).toBe(400);
    expect(vip.json().msg).toMatch(/VIP/);
    expect(await auditedWrites(t.db)).toBe(writes);
    const [vipPack] = await t.db.select().from(payConfigs).where(eq(payConfigs.id, 5));
    expect(vipPack?.presentCount).toBe(0);
  });

  it('an order keeps the amount and coins it was made with: paid at the old amount, refused at the new', async () => {
    const reader = await registerVisitor(t);
    const pack = await addPack(2000, { presentCount: 200 });
    const { order } = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1900);
    // The price goes up and the bonus changes after the order was made.
    expect((await editPack('owner', pack.id, coinPack(4000, { presentCount: 500 }))).statusCode).toBe(200);
    const atNewPrice = await pay(order.orderNo, 3800);
    expect(atNewPrice.json().result).toBe(false);
    expect(await balanceOf(t.db, reader.userId)).toBe(0);
    expect((await orderByNo(t.db, order.orderNo)).status).toBe('created');

    const atOrderPrice = await pay(order.orderNo, 1900);
    expect(atOrderPrice.json().result, atOrderPrice.body).toBe(true);
    expect(await balanceOf(t.db, reader.userId)).toBe(2000 + 200);
    expect(await orderByNo(t.db, order.orderNo)).toMatchObject({
      status: 'paid',
      amountLevel: 2000,
      payAmount: 1900,
    });
    // A new order is made at the new price.
    const next = await applyWeb(t, reader.cookie, coinsOf(pack.id), 3800);
    expect(next.order).toMatchObject({ amountLevel: 4000, itemCount: 4000, presentCount: 500 });
  });

  describe('the first-recharge offer', () => {
    it('is shown to readers who never paid, credited once on the first paid order (three notifications)', async () => {
      const pack = await addPack(1500, { presentCount: 50, firstPayBonus: 100, ...running() });
      const reader = await registerVisitor(t);
      expect((await rechargeCentre(reader.cookie)).find((p) => p.id === pack.id)?.firstPayBonus).toBe(100);
      const { order } = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1425);
      expect(order.firstPayBonus).toBe(100);
      const tradeNo = `SB${randomBytes(12).toString('hex').toUpperCase()}`;
      const answers = await Promise.all([1, 2, 3].map(() => pay(order.orderNo, 1425, tradeNo)));
      expect(answers.every((a) => a.json().result === true)).toBe(true);
      expect(await balanceOf(t.db, reader.userId)).toBe(1500 + 50 + 100);
      const offer = await t.db
        .select()
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.id, `first-pay:${reader.userId}`));
      expect(offer).toMatchObject([{ kind: 'bonus', amount: 100, orderId: order.id }]);

      // Paid now: the offer is no longer shown, and a second order does not carry it.
      expect(
        (await rechargeCentre(reader.cookie)).find((p) => p.id === pack.id)?.firstPayBonus,
      ).toBeUndefined();
      const second = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1425, { vueReturnUrl: '/again' });
      expect(second.order.firstPayBonus).toBe(0);
      expect((await pay(second.order.orderNo, 1425)).json().result).toBe(true);
      expect(await balanceOf(t.db, reader.userId)).toBe(2 * (1500 + 50) + 100);
    });

    it('the order’s 账本 and the reader’s coin transfers list the offer’s transfer beside the coins and bonus', async () => {
      const pack = await addPack(1600, { presentCount: 50, firstPayBonus: 100, ...running() });
      const reader = await registerVisitor(t);
      const { order } = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1520);
      expect((await pay(order.orderNo, 1520)).json().result).toBe(true);
      const res = await admin('finance', 'GET', `/api/admin/readers/${reader.userId}/transfers`);
      expect(res.statusCode, res.body).toBe(200);
      const { total, list } = res.json().data;
      const shown = list
        .map((x: { id: string; kind: string; amount: number; counterparty: string }) => [
          x.id,
          x.kind,
          x.amount,
          x.counterparty,
        ])
        .sort();
      expect(shown).toEqual(
        [
          [`first-pay:${reader.userId}`, 'bonus', 100, 'system:bonus'],
          [`order:${order.orderNo}:bonus`, 'bonus', 50, 'system:bonus'],
          [`order:${order.orderNo}:coins`, 'recharge', 1600, 'system:payments'],
        ].sort(),
      );
      expect(total).toBe(3);
      // The order's story (its 账本): every transfer made for it, the first-recharge offer's included.
      const story = await admin('finance', 'GET', `/api/admin/orders/${order.orderNo}`);
      expect(story.statusCode, story.body).toBe(200);
      expect(
        story
          .json()
          .data.ledger.map((x: { transferId: string; kind: string; amount: number }) => [
            x.transferId,
            x.kind,
            x.amount,
          ])
          .sort(),
      ).toEqual(
        [
          [`first-pay:${reader.userId}`, 'bonus', 100],
          [`order:${order.orderNo}:bonus`, 'bonus', 50],
          [`order:${order.orderNo}:coins`, 'recharge', 1600],
        ].sort(),
      );
    });

    it('two orders of a new reader paid at once: only one gets the offer', async () => {
      const pack = await addPack(1600, { firstPayBonus: 100, ...running() });
      const reader = await registerVisitor(t);
      const a = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1520);
      const b = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1520, { vueReturnUrl: '/other' });
      expect(a.order.id).not.toBe(b.order.id);
      expect([a.order.firstPayBonus, b.order.firstPayBonus]).toEqual([100, 100]);
      const answers = await Promise.all(
        [a, b, a, b].map((o) => pay(o.order.orderNo, 1520, `SB${o.order.id}X`)),
      );
      expect(answers.every((r) => r.json().result === true)).toBe(true);
      expect(await balanceOf(t.db, reader.userId)).toBe(2 * 1600 + 100);
      const bonuses = await t.db
        .select()
        .from(ledgerTransfers)
        .where(and(eq(ledgerTransfers.kind, 'bonus'), eq(ledgerTransfers.id, `first-pay:${reader.userId}`)));
      expect(bonuses).toHaveLength(1);
    });

    it('is not given outside its window, nor to a reader who paid before the offer began', async () => {
      const pack = await addPack(1700, {
        firstPayBonus: 100,
        firstPayStartsAt: new Date(Date.now() + HOUR).toISOString(),
        firstPayEndsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
      });
      const reader = await registerVisitor(t);
      expect(
        (await rechargeCentre(reader.cookie)).find((p) => p.id === pack.id)?.firstPayBonus,
      ).toBeUndefined();
      const early = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1615);
      expect(early.order.firstPayBonus).toBe(0);
      expect((await pay(early.order.orderNo, 1615)).json().result).toBe(true);

      // The offer starts: this reader has paid already, so it is neither shown nor given.
      expect(
        (await editPack('finance', pack.id, coinPack(1700, { firstPayBonus: 100, ...running() }))).statusCode,
      ).toBe(200);
      expect(
        (await rechargeCentre(reader.cookie)).find((p) => p.id === pack.id)?.firstPayBonus,
      ).toBeUndefined();
      const later = await applyWeb(t, reader.cookie, coinsOf(pack.id), 1615, { vueReturnUrl: '/later' });
      expect(later.order.firstPayBonus).toBe(0);
      expect((await pay(later.order.orderNo, 1615)).json().result).toBe(true);
      expect(await balanceOf(t.db, reader.userId)).toBe(2 * 1700);
    });
  });
});
