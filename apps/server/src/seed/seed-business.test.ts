// The business seed (`npm run seed -- --business`) on the demo library: readers, first visits through its branches,
// orders paid and not, refunds, purchases and reading within its days, and a dashboard that adds up on them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from '../../test/test-database.ts';
import { createDashboardRepository } from '../modules/payments/dashboard.console.repository.ts';
import { dashboard } from '../modules/payments/dashboard.console.service.ts';
import { rowsOf } from '../shared/rows.ts';
import { seedBusiness } from './seed-business.ts';

describeDb(`seedBusiness (${dbKind})`, () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase({ demo: true });
  });
  afterAll(() => test?.close());

  it('writes a history the dashboard sums consistently, within its days and branches', async () => {
    const result = await seedBusiness(test.db, { readers: 200, branches: 3, days: 40 });
    expect(result).toMatchObject({ readers: 200, visits: 400 });
    expect(result.orders).toBeGreaterThan(0);
    const [span] = rowsOf<Record<string, unknown>>(
      await test.db.execute(sql`
        select min(created_at) > now() - interval '41 days' as recent,
               bool_and(branch_id between 1001 and 1003) as branches,
               count(*) filter (where status = 'paid') as paid, count(*) filter (where status <> 'paid') as unpaid
        from pay_orders`),
    );
    expect(span).toMatchObject({ recent: true, branches: true });
    expect(Number(span?.paid)).toBeGreaterThan(0);
    expect(Number(span?.unpaid)).toBeGreaterThan(0);

    const data = await dashboard({ repo: createDashboardRepository(test.db) }, { days: 30 });
    const month = data.summaries[2];
    const sum = (key: 'revenue' | 'paidOrders' | 'newReaders' | 'refundedAmount') =>
      data.trend.reduce((s, d) => s + d[key], 0);
    expect(month?.revenue).toBe(sum('revenue'));
    expect(month?.paidOrders).toBe(sum('paidOrders'));
    expect(month?.newReaders).toBe(sum('newReaders'));
    expect(month?.refundedAmount).toBe(sum('refundedAmount'));
    expect(month?.revenue).toBeGreaterThan(0);
    expect(month?.firstPayers).toBeLessThanOrEqual(month?.payingReaders ?? 0);
    expect(data.funnel.map((f) => f.branchId).sort()).toEqual([1001, 1002, 1003]);
    for (const f of data.funnel) {
      expect(f.branchName).toBe(`推广渠道 ${f.branchId - 1000}`);
      expect(f.accounts).toBeLessThanOrEqual(f.firstVisits);
      expect(f.payers).toBeLessThanOrEqual(f.accounts);
    }
    // Returning readers: every seeded reader has a first day; fewer come back on day 7 or day 30 than on day 1.
    const { total } = data.retention;
    expect(total.newReaders).toBe(month?.newReaders);
    expect(total.day1.cohort).toBeGreaterThan(0);
    const rate = (d: { cohort: number; returned: number }) => d.returned / d.cohort;
    expect(rate(total.day1)).toBeGreaterThan(rate(total.day7));
    expect(rate(total.day1)).toBeGreaterThan(rate(total.day30));
    expect(data.retention.branches.map((b) => b.branchId).sort()).toEqual([1001, 1002, 1003]);
    expect(data.topBooksByCoins.length).toBeGreaterThan(0);
    expect(data.topBooksByReaders.length).toBeGreaterThan(0);
  });

  it('refuses sizes out of range', async () => {
    await expect(seedBusiness(test.db, { readers: 0, branches: 1, days: 1 })).rejects.toThrow(RangeError);
    await expect(seedBusiness(test.db, { readers: 1, branches: 1, days: 10_000 })).rejects.toThrow(
      RangeError,
    );
  });
});
