// `npm run bench:dashboard`: the console's dashboard call on a year of business (100 promotion branches, 100,000
// readers: `npm run seed -- --business`) on PostgreSQL and on PGlite, each seeded afresh; the median of several calls
// over the day, 7 and 30 days, aim under 300 ms. See bench/README.md.
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import {
  envList,
  envNumber,
  failOnMissedAims,
  fileStamp,
  fmt,
  machine,
  runMain,
  smoke,
  startBenchPostgres,
  tempDir,
  writeResults,
} from './bench-kit.mjs';

const settings = {
  readers: envNumber('BENCH_DASHBOARD_READERS', 100_000, 1, 300),
  branches: envNumber('BENCH_DASHBOARD_BRANCHES', 100, 1, 5),
  days: envNumber('BENCH_DASHBOARD_DAYS', 365, 1, 40),
  calls: envNumber('BENCH_DASHBOARD_CALLS', 9, 1, 3),
  warmup: envNumber('BENCH_DASHBOARD_WARMUP', 2, 0, 1),
  targets: envList('BENCH_TARGETS', 'postgres,pglite'),
};
const AIM_MS = 300;

runMain(async () => {
  const startedAt = new Date();
  const data = await tsImport('./dashboard-data.ts', import.meta.url);
  const results = {};
  for (const name of settings.targets) {
    let target;
    if (name === 'postgres') {
      const { url } = await startBenchPostgres('dashboard');
      target = { kind: 'postgres', url: String(url) };
    } else if (name === 'pglite') {
      target = { kind: 'pglite', dataDir: path.join(tempDir('yueman-bench-dashboard-'), 'data') };
    } else throw new Error(`BENCH_TARGETS: unknown target ${name}`);
    console.log(
      `\n${name}: seeding ${fmt(settings.readers)} readers, ${settings.branches} branches, ${settings.days} days`,
    );
    const result = await data.measureDashboard(target, settings);
    console.log(
      `  seeded ${fmt(result.seeded.readers)} readers, ${fmt(result.seeded.orders)} orders, ${fmt(result.seeded.visits)} first visits, ${fmt(result.seeded.purchases)} purchases, ${fmt(result.seeded.readerDays)} reader days in ${fmt(result.seeded.ms / 1000, 1)} s`,
    );
    for (const c of result.cases) {
      console.log(
        `  dashboard over ${c.days === 1 ? 'the day' : `${c.days} days`}: median ${fmt(c.medianMs, 1)} ms, slowest ${fmt(c.maxMs, 1)} ms (aim ${AIM_MS} ms); its returning readers alone: median ${fmt(c.retentionMedianMs, 1)} ms`,
      );
    }
    results[name] = result;
  }
  const missed = Object.values(results).some((r) => r.cases.some((c) => c.medianMs > AIM_MS));
  const rows = Object.entries(results).flatMap(([name, r]) =>
    r.cases.map(
      (c) =>
        `| ${name} | ${c.days} | ${fmt(c.medianMs, 1)} | ${fmt(c.maxMs, 1)} | ${AIM_MS} | ${fmt(c.retentionMedianMs, 1)} |`,
    ),
  );
  const markdown = [
    `# Dashboard bench ${startedAt.toISOString()}${smoke ? ' (smoke)' : ''}`,
    '',
    `${fmt(settings.readers)} readers, ${settings.branches} branches, ${settings.days} days; median of ${settings.calls} calls after ${settings.warmup} warm-up.`,
    '',
    '| database | window (days) | median ms | slowest ms | aim ms | returning readers alone, median ms |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeResults(
    `dashboard-${fileStamp(startedAt)}`,
    { settings, machine: machine(), results, aimMs: AIM_MS },
    markdown,
  );
  failOnMissedAims(missed);
}, 'the dashboard bench');
