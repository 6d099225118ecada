import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../../test/ledger-invariants.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { manyVisitorsEnv, registerVisitor, type TestVisitor } from '../../../test/visitors.ts';
import { ledgerTransfers, payChannels, payConfigs, payOrders } from '../../db/schema/index.ts';
import { giveCoins, newBook, nth } from './wallet-test-kit.ts';

describeDb('consumption records', () => {
  let t: TestApp;
  const records = (reader: TestVisitor | null, query = '') =>
    t.app.inject({ url: `/api/user/consumption${query}`, headers: reader ? { cookie: reader.cookie } : {} });

  /** A paid order as the payments domain leaves it: coins (with bonus) credited under its transfer ids. */
  async function paidOrder(
    userId: number,
    o: { purpose: 'coin' | 'vip'; items: number; bonus?: number; paid: number; at: string },
  ) {
    const [config] = await t.db
      .insert(payConfigs)
      .values({
        type: o.purpose,
        amountLevel: o.paid,
        itemCount: o.items,
        presentCount: o.bonus ?? 0,
        title: '套餐',
      })
      .returning();
    await t.db
      .insert(payChannels)
      .values({
        subTypeCode: 'test_alipay',
        superiorCode: 'alipay',
        subTypeDesc: '支付宝',
        appTypes: ['wap_browser'],
      })
      .onConflictDoNothing();
    const orderNo = randomUUID();
    const [order] = await t.db
      .insert(payOrders)
      .values({
        orderNo,
        userId,
        payConfigId: config?.id ?? 0,
        purpose: o.purpose,
        channel: 'test_alipay',
        gateway: 'sandbox',
        amountLevel: o.paid,
        payAmount: o.paid,
        itemCount: o.items,
        presentCount: o.bonus ?? 0,
        status: 'paid',
        appType: 'wap_browser',
        expiresAt: new Date(o.at),
        paidAt: new Date(o.at),
      })
      .returning();
    if (o.purpose === 'coin' && order) {
      // Credited as a verified notification credits it: through the wallet's port, in the caller's transaction.
      await t.app.ports.wallet.creditPaidOrder(t.db, order);
      await t.db
        .update(ledgerTransfers)
        .set({ createdAt: new Date(o.at) })
        .where(eq(ledgerTransfers.orderId, order?.id ?? 0));
    }
  }

  const setTransferTime = (id: string, at: string) =>
    t.db
      .update(ledgerTransfers)
      .set({ createdAt: new Date(at) })
      .where(eq(ledgerTransfers.id, id));

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: manyVisitorsEnv });
  });
  afterEach(async () => {
    await expectLedgerInvariants(t.db);
  });
  afterAll(() => t?.close());

  it('needs the session: 401 without one', async () => {
    const res = await records(null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ result: false, code: 401, data: null });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('lists recharges, bonuses, purchases and VIP, newest first, worded for the reader, in China time', async () => {
    const { chapters } = await newBook(t.db, { prices: [0, 12, 12], title: '星海旅人' });
    const reader = await registerVisitor(t);
    const other = await registerVisitor(t);
    await giveCoins(t.db, other.userId, 500);
    await t.app.inject({
      method: 'POST',
      url: `/api/book/chapter/buy?chapterId=${nth(chapters, 1).id}`,
      headers: { cookie: other.cookie },
    });

    await paidOrder(reader.userId, {
      purpose: 'coin',
      items: 100,
      bonus: 20,
      paid: 1000,
      at: '2026-03-01T02:00:00Z',
    });
    await paidOrder(reader.userId, { purpose: 'vip', items: 30, paid: 3000, at: '2026-03-01T16:30:00Z' });
    for (const [i, at] of [
      [2, '2026-03-02T01:05:00Z'],
      [1, '2026-03-02T01:06:00Z'],
    ] as const) {
      const chapter = nth(chapters, i);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/book/chapter/buy?chapterId=${chapter.id}`,
        headers: { cookie: reader.cookie },
      });
      expect(res.json().data.charged).toBe(12);
      await setTransferTime(`purchase:${reader.userId}:${chapter.id}`, at);
    }

    const res = await records(reader);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data } = res.json();
    expect(data.totalItem).toBe(5);
    expect(data.totalPage).toBe(1);
    const lines = data.list.map(({ id: _id, ...line }: { id: string }) => line);
    expect(lines).toEqual([
      {
        kind: 'purchase',
        coins: -12,
        title: '购买《星海旅人》第2话',
        payAmount: 0,
        createdAt: '2026-03-02 09:06',
      },
      {
        kind: 'purchase',
        coins: -12,
        title: '购买《星海旅人》第3话',
        payAmount: 0,
        createdAt: '2026-03-02 09:05',
      },
      { kind: 'vip', coins: 0, title: '开通VIP 30天', payAmount: 3000, createdAt: '2026-03-02 00:30' },
      { kind: 'bonus', coins: 20, title: '赠送 20阅币', payAmount: 0, createdAt: '2026-03-01 10:00' },
      { kind: 'recharge', coins: 100, title: '充值 100阅币', payAmount: 1000, createdAt: '2026-03-01 10:00' },
    ]);
    expect(new Set(data.list.map((l: { id: string }) => l.id)).size).toBe(5);

    // Coins bought, then spent: the balance agrees with the records.
    const info = (await t.app.inject({ url: '/api/user/info', headers: { cookie: reader.cookie } })).json();
    expect(info.data.avaliableAmount).toBe(100 + 20 - 24);
  });

  it('leaves out orders that are not paid VIP orders, and other readers', async () => {
    const reader = await registerVisitor(t);
    await paidOrder(reader.userId, { purpose: 'vip', items: 7, paid: 900, at: '2026-04-01T00:00:00Z' });
    await t.db.execute(
      sql`update pay_orders set status = 'created', paid_at = null where user_id = ${reader.userId}`,
    );
    const { data } = (await records(reader)).json();
    expect(data).toEqual({ list: [], totalItem: 0, totalPage: 0 });
  });

  it('pages 20 at a time with no line twice, and refuses a bad page', async () => {
    const reader = await registerVisitor(t);
    const base = Date.parse('2026-05-01T00:00:00Z');
    for (let i = 0; i < 23; i++) await giveCoins(t.db, reader.userId, i + 1);
    await paidOrder(reader.userId, {
      purpose: 'vip',
      items: 3,
      paid: 500,
      at: new Date(base + 330_000).toISOString(),
    });
    // Credits a minute apart (n coins at minute n - 1), the VIP order at minute 5.5: the order is known.
    await t.db.execute(sql`
      update ledger_transfers set created_at = ${new Date(base).toISOString()}::timestamptz + (amount - 1) * interval '1 minute'
      where user_id = ${reader.userId}`);

    const first = (await records(reader, '?page=1')).json().data;
    const second = (await records(reader, '?page=2')).json().data;
    expect(first).toMatchObject({ totalItem: 24, totalPage: 2 });
    expect(first.list).toHaveLength(20);
    expect(second.list).toHaveLength(4);
    const all = [...first.list, ...second.list];
    expect(new Set(all.map((l: { id: string }) => l.id)).size).toBe(24);
    const stamps = all.map((l: { createdAt: string }) => l.createdAt);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(first.list[0].title).toBe('充值 23阅币');
    expect(first.list[17].title).toBe('开通VIP 3天');
    expect(second.list.map((l: { title: string }) => l.title)).toEqual([
      '充值 4阅币',
      '充值 3阅币',
      '充值 2阅币',
      '充值 1阅币',
    ]);
    expect((await records(reader, '?page=3')).json().data.list).toEqual([]);

    for (const bad of ['0', 'x', '-2']) {
      const res = await records(reader, `?page=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ result: false, code: 400, msg: '参数 page 不正确' });
    }
  });
});
