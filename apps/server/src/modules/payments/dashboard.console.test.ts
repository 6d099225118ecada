// The console's dashboard on a known week written straight into the tables the service writes: first visits,
// registrations, orders paid and not, refunds that succeeded and not, chapter purchases, unlocks and reading, placed
// on both sides of China-time midnights. Every figure is checked exactly; the roles and bad input too.
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleOperators } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import {
  books,
  branchSettings,
  chapterPurchases,
  chapters,
  chapterUnlocks,
  payChannels,
  payConfigs,
  payOrders,
  payRefunds,
  readingProgress,
  readingTickets,
  users,
  visitMarks,
} from '../../db/schema/index.ts';

type Admin = Awaited<ReturnType<typeof consoleOperators>>['admin'];

/** An instant given in China time, 'YYYY-MM-DD HH:MM:SS'. */
const at = (china: string) => new Date(`${china.replace(' ', 'T')}+08:00`);

describeDb('the console’s dashboard', () => {
  let t: TestApp;
  let admin: Admin;
  const u: Record<string, number> = {};
  const ch: Record<'a1' | 'a2' | 'b1', { id: number; bookId: number; number: number; title: string }> =
    {} as never;
  const titles: Record<number, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']));
    const db = t.db;
    await db.insert(branchSettings).values({ branchId: 7001, name: '抖音一号' }).onConflictDoNothing();

    const reader = async (key: string, visitorId: string, branchId: number, createdAt: string) => {
      const [row] = await db
        .insert(users)
        .values({ account: `ydtest${key}`, passwordHash: 'x', visitorId, branchId, createdAt: at(createdAt) })
        .returning({ id: users.id });
      u[key] = row?.id as number;
    };
    await reader('u1', 'v1', 7001, '2025-03-04 10:00:00');
    await reader('u2', 'v2', 7001, '2025-03-09 23:59:59');
    await reader('u3', 'v3', 7002, '2025-03-10 00:00:00');
    await reader('u4', 'v4', -2, '2025-02-20 08:00:00');
    await reader('u5', 'v5', -2, '2025-01-01 08:00:00');

    const visit = (branchId: number, visitorId: string, createdAt: string, userId: number | null = null) =>
      db.insert(visitMarks).values({ branchId, visitorId, userId, createdAt: at(createdAt) });
    await visit(7001, 'v1', '2025-03-04 09:00:00');
    await visit(7001, 'v2', '2025-03-09 23:00:00');
    await visit(7001, 'v6', '2025-03-05 12:00:00');
    await visit(7002, 'v3', '2025-03-09 23:59:30');
    // A reader who had an account long before, marked with it on a new branch.
    await visit(7002, 'v5x', '2025-03-06 10:00:00', u.u5 as number);
    await visit(-2, 'v4', '2025-02-20 07:00:00');
    await visit(-2, 'v7', '2025-03-03 23:59:59');
    await visit(-2, 'v8', '2025-03-04 00:00:00');

    const [config] = await db.select().from(payConfigs).orderBy(asc(payConfigs.id)).limit(1);
    const [channel] = await db.select().from(payChannels).limit(1);
    let seq = 0;
    const order = async (user: string, cents: number, status: string, time: string) => {
      const createdAt = at(time);
      const [row] = await db
        .insert(payOrders)
        .values({
          orderNo: `YMTEST${++seq}`,
          userId: u[user] as number,
          payConfigId: config?.id as number,
          purpose: 'coin',
          channel: channel?.subTypeCode as string,
          gateway: 'sandbox',
          amountLevel: cents,
          payAmount: cents,
          itemCount: cents,
          status,
          paidAt: status === 'paid' ? createdAt : null,
          branchId: 7001,
          appType: 'wap_browser',
          createdAt,
          expiresAt: new Date(createdAt.getTime() + 15 * 60_000),
        })
        .returning({ id: payOrders.id });
      return row?.id as number;
    };
    await order('u5', 900, 'paid', '2025-01-02 12:00:00');
    const o1 = await order('u1', 3000, 'paid', '2025-03-04 10:30:00');
    const o2 = await order('u1', 600, 'paid', '2025-03-09 23:59:59');
    await order('u2', 1000, 'paid', '2025-03-10 00:00:00');
    await order('u3', 3000, 'created', '2025-03-10 01:00:00');
    await order('u3', 600, 'expired', '2025-03-10 02:00:00');
    const o6 = await order('u4', 5000, 'paid', '2025-02-20 12:00:00');
    const o8 = await order('u5', 800, 'paid', '2025-03-06 12:00:00');
    await order('u2', 1000, 'paid', '2025-03-11 00:00:01');
    await order('u4', 200, 'paid', '2025-03-03 23:59:59');

    const refund = (orderId: number, amount: number, state: string, time: string) =>
      db.insert(payRefunds).values({
        refundNo: `RFTEST${++seq}`,
        orderId,
        amount,
        reason: '测试',
        state,
        actor: 'owner1',
        createdAt: at(time),
      });
    await refund(o1, 1000, 'success', '2025-03-10 00:00:00');
    await refund(o6, 5000, 'success', '2025-03-09 23:59:59');
    await refund(o2, 600, 'failed', '2025-03-10 08:00:00');
    await refund(o8, 800, 'processing', '2025-03-10 09:00:00');

    // Two books of the demo library: chapters a1, a2 of the first and b1 of the second.
    const rows = await db
      .select({ id: chapters.id, bookId: chapters.bookId, number: chapters.number, title: chapters.title })
      .from(chapters)
      .orderBy(asc(chapters.bookId), asc(chapters.number));
    const [bookA, bookB] = [...new Set(rows.map((r) => r.bookId))] as [number, number];
    const ofBook = (bookId: number) => rows.filter((r) => r.bookId === bookId);
    [ch.a1, ch.a2] = ofBook(bookA) as [typeof ch.a1, typeof ch.a2];
    [ch.b1] = ofBook(bookB) as [typeof ch.b1];
    for (const r of await db.select({ id: books.id, title: books.title }).from(books)) titles[r.id] = r.title;

    const buy = (user: string, chapterId: number, price: number, time: string) =>
      db
        .insert(chapterPurchases)
        .values({ userId: u[user] as number, chapterId, price, createdAt: at(time) });
    await buy('u1', ch.a1.id, 30, '2025-03-05 08:00:00');
    await buy('u2', ch.a1.id, 30, '2025-03-09 23:59:59');
    await buy('u2', ch.a2.id, 0, '2025-03-10 00:00:00');
    await buy('u5', ch.b1.id, 50, '2025-03-03 23:59:59');
    await buy('u3', ch.b1.id, 50, '2025-03-10 00:00:00');
    await db.insert(chapterUnlocks).values({
      id: `unlock:${u.u3}:${ch.a2.id}`,
      userId: u.u3 as number,
      chapterId: ch.a2.id,
      source: 'wait_free',
      endsAt: at('2025-03-11 08:00:00'),
      createdAt: at('2025-03-08 08:00:00'),
    });
    const [ticket] = await db
      .insert(readingTickets)
      .values({
        grantId: `tickets:${u.u1}:test:1`,
        userId: u.u1 as number,
        kind: 'read',
        source: 'grant',
        expiresAt: at('2025-04-01 00:00:00'),
        spentAt: at('2025-03-07 08:00:00'),
        spentChapterId: ch.b1.id,
      })
      .returning({ id: readingTickets.id });
    await db.insert(chapterUnlocks).values({
      id: `unlock:${u.u1}:${ch.b1.id}`,
      userId: u.u1 as number,
      chapterId: ch.b1.id,
      source: 'ticket',
      ticketId: ticket?.id as number,
      createdAt: at('2025-03-07 08:00:00'),
    });

    const read = (user: string, bookId: number, time: string) =>
      db.insert(readingProgress).values({
        userId: u[user] as number,
        bookId,
        chapterNumber: 1,
        pageNumber: 1,
        readAt: at(time),
      });
    await read('u1', bookA, '2025-03-06 20:00:00');
    await read('u2', bookA, '2025-03-10 00:00:00');
    await read('u3', bookB, '2025-03-10 00:00:01');
    await read('u5', bookB, '2025-03-03 23:59:59');
  });
  afterAll(() => t?.close());

  const dashboard = async (query: string, role: 'owner' | 'finance' = 'owner') => {
    const res = await admin(role, 'GET', `/api/admin/dashboard?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('sums the day, the 7 and the 30 China days ending with it, midnight by midnight', async () => {
    const data = await dashboard('date=2025-03-10');
    expect(data.date).toBe('2025-03-10');
    expect(data.days).toBe(7);
    expect(data.summaries).toEqual([
      {
        days: 1,
        from: '2025-03-10',
        to: '2025-03-10',
        revenue: 1000,
        paidOrders: 1,
        payingReaders: 1,
        newReaders: 1,
        firstPayers: 1,
        arppu: 1000,
        refunds: 1,
        refundedAmount: 1000,
      },
      {
        days: 7,
        from: '2025-03-04',
        to: '2025-03-10',
        revenue: 5400,
        paidOrders: 4,
        payingReaders: 3,
        newReaders: 3,
        firstPayers: 2,
        arppu: 1800,
        refunds: 2,
        refundedAmount: 6000,
      },
      {
        days: 30,
        from: '2025-02-09',
        to: '2025-03-10',
        revenue: 10600,
        paidOrders: 6,
        payingReaders: 4,
        newReaders: 4,
        firstPayers: 3,
        arppu: 2650,
        refunds: 2,
        refundedAmount: 6000,
      },
    ]);
  });

  it('gives each of the 30 China days of the trend', async () => {
    const { trend } = await dashboard('date=2025-03-10');
    expect(trend).toHaveLength(30);
    expect(trend[0].date).toBe('2025-02-09');
    expect(trend[29].date).toBe('2025-03-10');
    const busy = Object.fromEntries(
      trend
        .filter(
          (d: { revenue: number; refundedAmount: number; newReaders: number }) =>
            d.revenue || d.refundedAmount || d.newReaders,
        )
        .map(({ date, ...rest }: { date: string }) => [date, rest]),
    );
    expect(busy).toEqual({
      '2025-02-20': { revenue: 5000, refundedAmount: 0, paidOrders: 1, newReaders: 1 },
      '2025-03-03': { revenue: 200, refundedAmount: 0, paidOrders: 1, newReaders: 0 },
      '2025-03-04': { revenue: 3000, refundedAmount: 0, paidOrders: 1, newReaders: 1 },
      '2025-03-06': { revenue: 800, refundedAmount: 0, paidOrders: 1, newReaders: 0 },
      '2025-03-09': { revenue: 600, refundedAmount: 5000, paidOrders: 1, newReaders: 1 },
      '2025-03-10': { revenue: 1000, refundedAmount: 1000, paidOrders: 1, newReaders: 1 },
    });
  });

  it('ranks books and chapters by coins and by reading over the window', async () => {
    const data = await dashboard('date=2025-03-10&days=7', 'finance');
    const [a, b] = [ch.a1.bookId, ch.b1.bookId];
    expect(data.topBooksByCoins).toEqual([
      { bookId: a, title: titles[a], coins: 60, readers: 2 },
      { bookId: b, title: titles[b], coins: 50, readers: 1 },
    ]);
    expect(data.topBooksByReaders).toEqual(data.topBooksByCoins);
    const chapter = (c: typeof ch.a1, coins: number, unlocks: number) => ({
      chapterId: c.id,
      bookId: c.bookId,
      bookTitle: titles[c.bookId],
      number: c.number,
      title: c.title,
      coins,
      unlocks,
    });
    expect(data.topChaptersByCoins).toEqual([chapter(ch.a1, 60, 2), chapter(ch.b1, 50, 2)]);
    expect(data.topChaptersByUnlocks).toEqual(
      [chapter(ch.a1, 60, 2), chapter(ch.a2, 0, 2), chapter(ch.b1, 50, 2)].sort(
        (x, y) => x.chapterId - y.chapterId,
      ),
    );
    // The day alone: b1 bought at midnight (a1 a second before it is the day before); books read from midnight.
    const today = await dashboard('date=2025-03-10&days=1');
    expect(today.topBooksByCoins).toEqual([{ bookId: b, title: titles[b], coins: 50, readers: 1 }]);
    expect(today.topBooksByReaders).toEqual([
      { bookId: a, title: titles[a], coins: 0, readers: 1 },
      { bookId: b, title: titles[b], coins: 50, readers: 1 },
    ]);
  });

  it('follows each branch’s first visits of the window to accounts, payers and revenue within 30 days', async () => {
    const { funnel } = await dashboard('date=2025-03-10&days=7');
    expect(funnel).toEqual([
      { branchId: 7001, branchName: '抖音一号', firstVisits: 3, accounts: 2, payers: 2, revenue: 5600 },
      { branchId: 7002, branchName: '', firstVisits: 2, accounts: 2, payers: 1, revenue: 800 },
      { branchId: -2, branchName: '', firstVisits: 1, accounts: 0, payers: 0, revenue: 0 },
    ]);
  });

  it('splits unlocks per book and branch by how they were unlocked', async () => {
    const { byUnlock } = await dashboard('date=2025-03-10&days=7');
    const [a, b] = [ch.a1.bookId, ch.b1.bookId];
    const row = (bookId: number, branchId: number, counts: Partial<Record<string, number>>) => ({
      bookId,
      bookTitle: titles[bookId],
      branchId,
      branchName: branchId === 7001 ? '抖音一号' : '',
      coinsUnlocks: 0,
      coins: 0,
      waitFreeUnlocks: 0,
      ticketUnlocks: 0,
      freeUnlocks: 0,
      ...counts,
    });
    expect(byUnlock).toEqual([
      row(a, 7001, { coinsUnlocks: 2, coins: 60, freeUnlocks: 1 }),
      row(b, 7002, { coinsUnlocks: 1, coins: 50 }),
      row(a, 7002, { waitFreeUnlocks: 1 }),
      row(b, 7001, { ticketUnlocks: 1 }),
    ]);
  });

  describe('who and what', () => {
    it('answers owners and finance; editors and support get the 403', async () => {
      expect((await dashboard('date=2025-03-10', 'finance')).summaries[1].revenue).toBe(5400);
      for (const role of ['support', 'editor'] as const) {
        const res = await admin(role, 'GET', '/api/admin/dashboard');
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ result: false, code: 403 });
      }
    });

    it('refuses a date that is not one, or a window it does not sum', async () => {
      for (const query of ['date=2025-02-30', 'date=yesterday', 'days=5', 'days=abc']) {
        const res = await admin('owner', 'GET', `/api/admin/dashboard?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json()).toMatchObject({ result: false, code: 400 });
      }
    });

    it('ends with today by default', async () => {
      const data = await dashboard('');
      expect(data.trend).toHaveLength(30);
      expect(data.summaries.map((s: { days: number }) => s.days)).toEqual([1, 7, 30]);
    });
  });
});
