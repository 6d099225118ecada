// The dashboard's daily summary against the raw tables: random sequences of registrations, orders (paid at once,
// paid late, left unpaid), refunds (succeeding at once, or processing and settled later, either way) across China
// midnights, with the dashboard reading now and then as the clock moves; every read equals the raw computation, and
// settled days do end up in the summary. Then a backfill: days written before the summary existed (or rewritten in
// the past) are summarised by the first read, or again by a rebuild.
import { asc, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeDb, type TestDatabase } from '../../../test/test-database.ts';
import { payChannels, payConfigs, payOrders, payRefunds, users } from '../../db/schema/index.ts';
import { chinaDate, chinaDay } from '../../shared/china-time.ts';
import { rowsOf } from '../../shared/rows.ts';
import { createDashboardSummary, type DayFigures } from './dashboard.summary.repository.ts';

type Step =
  | { op: 'wait'; minutes: number }
  | { op: 'register'; branch: number }
  | { op: 'order'; reader: number; cents: number; branch: number; paid: boolean }
  | { op: 'pay_late'; order: number }
  | { op: 'refund'; order: number; settled: boolean }
  | { op: 'settle'; refund: number; success: boolean }
  | { op: 'read' };

const BRANCHES = [-2, 7001, 7002];
const pick = fc.integer({ min: 0, max: 1000 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({ op: fc.constant('wait' as const), minutes: fc.integer({ min: 1, max: 900 }) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ op: fc.constant('register' as const), branch: fc.constantFrom(...BRANCHES) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('order' as const),
      reader: pick,
      cents: fc.constantFrom(600, 3000, 5000),
      branch: fc.constantFrom(...BRANCHES),
      paid: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ op: fc.constant('pay_late' as const), order: pick }), weight: 1 },
  {
    arbitrary: fc.record({ op: fc.constant('refund' as const), order: pick, settled: fc.boolean() }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ op: fc.constant('settle' as const), refund: pick, success: fc.boolean() }),
    weight: 1,
  },
  { arbitrary: fc.constant({ op: 'read' as const }), weight: 2 },
);

const sorted = (rows: DayFigures[]) =>
  [...rows].sort((a, b) => a.date.localeCompare(b.date) || a.branchId - b.branchId);
const DAY_MS = 86_400_000;

describeDb('the dashboard’s daily summary', () => {
  let db: TestDatabase;
  let shop: { configId: number; channel: string };
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase({ demo: true });
    const [config] = await db.db.select().from(payConfigs).orderBy(asc(payConfigs.id)).limit(1);
    const [channel] = await db.db.select().from(payChannels).limit(1);
    shop = { configId: config?.id as number, channel: channel?.subTypeCode as string };
  });
  afterAll(() => db?.close());

  const register = async (branchId: number, at: Date) => {
    const [row] = await db.db
      .insert(users)
      .values({ account: `ydsum${++seq}`, passwordHash: 'x', visitorId: `vs${seq}`, branchId, createdAt: at })
      .returning({ id: users.id });
    return row?.id as number;
  };
  const order = async (userId: number, cents: number, branchId: number, paid: boolean, at: Date) => {
    const [row] = await db.db
      .insert(payOrders)
      .values({
        orderNo: `YMSUM${++seq}`,
        userId,
        payConfigId: shop.configId,
        purpose: 'coin',
        channel: shop.channel,
        gateway: 'sandbox',
        amountLevel: cents,
        payAmount: cents,
        itemCount: cents,
        status: paid ? 'paid' : 'expired',
        paidAt: paid ? at : null,
        branchId,
        appType: 'wap_browser',
        createdAt: at,
        expiresAt: new Date(at.getTime() + 15 * 60_000),
      })
      .returning({ id: payOrders.id });
    return row?.id as number;
  };
  const refund = async (orderId: number, amount: number, state: string, at: Date) => {
    const [row] = await db.db
      .insert(payRefunds)
      .values({
        refundNo: `RFSUM${++seq}`,
        orderId,
        amount,
        reason: '测试',
        state,
        actor: 't',
        createdAt: at,
      })
      .returning({ id: payRefunds.id });
    return row?.id as number;
  };

  let month = 0;
  it('equals the raw tables after random orders, refunds and registrations across China midnights', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 10, maxLength: 40 }), async (steps) => {
        // Each run in a month of its own, starting 22:00 China time.
        month += 1;
        const first = chinaDay(`2023-${String(month).padStart(2, '0')}-01`);
        if (!first) throw new Error('bad month');
        const from = first.from;
        const to = new Date(from.getTime() + 20 * DAY_MS);
        let now = new Date(from.getTime() + 22 * 3600_000);
        const summary = createDashboardSummary(db.db);
        const readers: number[] = [];
        const orders: Array<{ id: number; cents: number; paid: boolean }> = [];
        const refunds: Array<{ id: number; processing: boolean }> = [];
        const check = async () => {
          const kept = await summary.days(from, to, now);
          expect(sorted(kept)).toEqual(sorted(await summary.raw(from, to)));
        };
        for (const s of steps) {
          if (s.op === 'wait') now = new Date(now.getTime() + s.minutes * 60_000);
          else if (s.op === 'register') readers.push(await register(s.branch, now));
          else if (s.op === 'order' && readers.length > 0) {
            const reader = readers[s.reader % readers.length] as number;
            orders.push({
              id: await order(reader, s.cents, s.branch, s.paid, now),
              cents: s.cents,
              paid: s.paid,
            });
          } else if (s.op === 'pay_late' && orders.length > 0) {
            const o = orders[s.order % orders.length];
            if (o && !o.paid) {
              await db.db.execute(
                sql`update pay_orders set status = 'paid', paid_at = ${now.toISOString()}::timestamptz where id = ${o.id}`,
              );
              o.paid = true;
            }
          } else if (s.op === 'refund' && orders.length > 0) {
            const o = orders[s.order % orders.length];
            if (o?.paid) {
              const id = await refund(o.id, o.cents, s.settled ? 'success' : 'processing', now);
              refunds.push({ id, processing: !s.settled });
            }
          } else if (s.op === 'settle' && refunds.length > 0) {
            const r = refunds[s.refund % refunds.length];
            if (r?.processing) {
              await db.db.execute(
                sql`update pay_refunds set state = ${s.success ? 'success' : 'failed'} where id = ${r.id}`,
              );
              r.processing = false;
            }
          } else if (s.op === 'read') await check();
        }
        await check();
        // A day later every day so far is settled unless a refund of it still processes: it is summarised.
        now = new Date(now.getTime() + DAY_MS);
        await check();
        const pending = new Set(
          rowsOf<{ day: string }>(
            await db.db.execute(sql`
              select distinct to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD') as day
              from pay_refunds where state = 'processing'`),
          ).map((r) => r.day),
        );
        const done = new Set(
          rowsOf<{ day: string }>(
            await db.db.execute(sql`select day::text as day from dashboard_summary_days`),
          ).map((r) => r.day),
        );
        for (let d = chinaDate(from); d < chinaDate(now, -1); d = chinaDate(chinaDay(d)?.to ?? now)) {
          expect(done.has(d) || pending.has(d), d).toBe(true);
        }
      }),
      {
        numRuns: Number(process.env.DASHBOARD_SUMMARY_RUNS ?? 6),
        seed: 25,
        // Always tried: a refund asked before midnight, still processing when the day closes, succeeding after a
        // read; and an order left unpaid, paid the next day.
        examples: [
          [
            [
              { op: 'register', branch: 7001 },
              { op: 'order', reader: 0, cents: 3000, branch: 7001, paid: true },
              { op: 'order', reader: 0, cents: 600, branch: 7002, paid: false },
              { op: 'refund', order: 0, settled: false },
              { op: 'wait', minutes: 900 },
              { op: 'read' },
              { op: 'pay_late', order: 1 },
              { op: 'settle', refund: 0, success: true },
              { op: 'read' },
              { op: 'wait', minutes: 900 },
              { op: 'register', branch: -2 },
              { op: 'read' },
            ],
          ],
        ],
      },
    );
  });

  it('summarises days written before it existed on the first read, and again on a rebuild', async () => {
    const day = (d: string, hh: number) => new Date(`${d}T${String(hh).padStart(2, '0')}:00:00+08:00`);
    const a = await register(7001, day('2022-06-01', 23));
    const b = await register(7002, day('2022-06-02', 0));
    await order(a, 3000, 7001, true, day('2022-06-02', 10));
    const o = await order(b, 600, 7002, true, day('2022-06-03', 23));
    await refund(o, 600, 'success', day('2022-06-04', 1));
    const from = chinaDay('2022-06-01')?.from as Date;
    const to = chinaDay('2022-06-08')?.to as Date;
    const now = new Date();
    const summary = createDashboardSummary(db.db);
    const count = async () =>
      rowsOf<{ n: number }>(
        await db.db.execute(sql`
          select count(*)::int as n from dashboard_summary_days where day between '2022-06-01' and '2022-06-08'`),
      )[0]?.n;
    expect(await count()).toBe(0);
    const first = sorted(await summary.days(from, to, now));
    expect(first).toEqual(sorted(await summary.raw(from, to)));
    expect(first.reduce((s, f) => s + f.revenue, 0)).toBe(3600);
    expect(await count()).toBe(8);

    // A correction with a past time (an import) is not seen by the summary until the days are rebuilt.
    await order(a, 5000, 7001, true, day('2022-06-05', 12));
    expect((await summary.days(from, to, now)).reduce((s, f) => s + f.revenue, 0)).toBe(3600);
    expect(await summary.rebuild(from, to, now)).toBe(8);
    const rebuilt = sorted(await summary.days(from, to, now));
    expect(rebuilt).toEqual(sorted(await summary.raw(from, to)));
    expect(rebuilt.reduce((s, f) => s + f.revenue, 0)).toBe(8600);
  });
});
