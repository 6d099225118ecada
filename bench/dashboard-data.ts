// Data and measurements for bench/dashboard.mjs, in TypeScript so it runs the server's own schema, seeds, repository
// and service: the demo library with a business's history (`npm run seed -- --business`), then the dashboard call's
// service function, timed.
import { type DatabaseTarget, openDatabase } from '../apps/server/src/db/client.ts';
import { createDashboardRepository } from '../apps/server/src/modules/payments/dashboard.console.repository.ts';
import { dashboard } from '../apps/server/src/modules/payments/dashboard.console.service.ts';
import { retention } from '../apps/server/src/modules/payments/dashboard.retention.service.ts';
import { seedBusiness } from '../apps/server/src/seed/seed-business.ts';
import { seedDemoLibrary } from '../apps/server/src/seed/seed-demo.ts';
import { chinaDate } from '../apps/server/src/shared/china-time.ts';

export interface DashboardBenchOptions {
  readers: number;
  branches: number;
  days: number;
  calls: number;
  warmup: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Seeds the target, then times the dashboard over the day, 7 and 30 days: the median and the slowest of the calls. */
export async function measureDashboard(target: DatabaseTarget, opts: DashboardBenchOptions) {
  const { db, close } = await openDatabase(target);
  try {
    await seedDemoLibrary(db);
    const seeded = await seedBusiness(db, opts);
    const deps = { repo: createDashboardRepository(db) };
    const cases = [];
    for (const days of [1, 7, 30] as const) {
      for (let i = 0; i < opts.warmup; i++) await dashboard(deps, { days });
      const times: number[] = [];
      let answer: Awaited<ReturnType<typeof dashboard>> | undefined;
      for (let i = 0; i < opts.calls; i++) {
        const started = performance.now();
        answer = await dashboard(deps, { days });
        times.push(performance.now() - started);
      }
      const month = answer?.summaries.find((s) => s.days === 30);
      // Nothing measured on an empty answer: the seed's month has payments, and its 30 days first visits (a smoke
      // run's small seed may have none in the last day, so the day's funnel may be empty).
      if (!month || month.revenue <= 0 || (days === 30 && (answer?.funnel.length ?? 0) === 0)) {
        throw new Error(
          `the dashboard over ${days} days answered no revenue or no funnel: the seed did not land`,
        );
      }
      // Its returning readers alone (one of the calls above does the same, beside the other figures).
      const today = chinaDate(new Date());
      const retentionTimes: number[] = [];
      for (let i = 0; i < opts.calls; i++) {
        const started = performance.now();
        await retention(deps.repo.retention, { date: today, days, today });
        retentionTimes.push(performance.now() - started);
      }
      cases.push({
        days,
        medianMs: Math.round(median(times) * 10) / 10,
        maxMs: Math.round(Math.max(...times) * 10) / 10,
        retentionMedianMs: Math.round(median(retentionTimes) * 10) / 10,
        day1Cohort: answer?.retention.total.day1.cohort ?? 0,
        monthRevenueCents: month.revenue,
        funnelBranches: answer?.funnel.length ?? 0,
      });
    }
    return { seeded, cases };
  } finally {
    await close();
  }
}
