import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { tsImport } from 'tsx/esm/api';
import {
  envList,
  envNumber,
  fileStamp,
  fmt,
  loadSettings,
  machine,
  resultsDir,
  runCollecting,
  runMain,
  startBenchPostgres,
  startServer,
  tempDir,
  writeResults,
} from './bench-kit.mjs';
import { childPids, cpuCores, cpuSnapshot, ticksOf, waitForQuiet } from './cpu.mjs';
import { summariseProfiles } from './profile-summary.mjs';

const settings = {
  ...loadSettings(),
  concurrency: envNumber('BENCH_CONNECTIONS', 16, 1, 4),
  readers: envNumber('BENCH_READERS', 2000, 10, 100),
  chaptersPerBook: envNumber('BENCH_CHAPTERS', 500, 10, 20),
  // How the server and pgbench reach PostgreSQL: 'tcp' (127.0.0.1) or 'unix' (the cluster's socket).
  transport: process.env.BENCH_PG_TRANSPORT === 'unix' ? 'unix' : 'tcp',
  // pgbench's query mode: 'extended' (default) or 'prepared' (every statement named and parsed once).
  pgbenchMode: process.env.BENCH_PGBENCH_MODE === 'prepared' ? 'prepared' : 'extended',
  targets: envList('BENCH_TARGETS', 'postgres,pglite'),
};
const AIMS = { ratio: 0.5, pglite: 500 };

const data = await tsImport('./purchase-data.ts', import.meta.url);
const startedAt = new Date();
const stamp = fileStamp(startedAt);

/** BENCH_CPU_PROF=1: the server's V8 profile of one side goes here, and its summary into the report. */
function profileDirFor(side) {
  if (!settings.cpuProf) return undefined;
  const dir = path.join(resultsDir, `purchase-${stamp}-${side}-cpuprofile`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
const profiles = [];
function summariseProfile(dir, run) {
  if (!dir) return;
  const summary = summariseProfiles(dir, [run.window]);
  if (summary) profiles.push(`### ${run.window.name}\n\n${summary}`);
}

// ------------------------------------------------------------------------------------- CPU accounting

/** PostgreSQL: the postmaster, the backends it reaped, and the live ones. */
function postgresTicks(postmasterPid) {
  if (!postmasterPid) return 0;
  return ticksOf(postmasterPid, true) + childPids(postmasterPid).reduce((sum, pid) => sum + ticksOf(pid), 0);
}

// The sides of a run. This process runs autocannon; pgbench is its child and counts once it has exited.
const cpuSides = (pids) => ({
  server: () => (pids.server ? ticksOf(pids.server) : 0),
  postgres: () => postgresTicks(pids.postmaster),
  loadGenerator: () => ticksOf(process.pid, true),
});

/** A run's cores for its log line (none off Linux). */
const coresText = (cpu, names) =>
  cpu ? `cores: ${names.map(([key, label]) => `${label} ${cpu[key].toFixed(2)}`).join(' ')}` : '';

// ------------------------------------------------------------------------------------------- PostgreSQL

async function startPostgres() {
  const { url, settings: shown } = await startBenchPostgres('bench_purchase', [
    'data_directory',
    'unix_socket_directories',
  ]);
  const dataDirectory = shown.data_directory;
  const version = shown.server_version;
  const socketDir = shown.unix_socket_directories.split(',')[0].trim();
  const postmasterPid = Number(
    readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  // The pgbench of the cluster's own PostgreSQL (the newest installed, as pg-cluster.ts starts), else Debian's wrapper.
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : [];
  const bin = path.dirname(
    [...versions.map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`), '/usr/bin/pgbench'].find((p) =>
      existsSync(p),
    ) ?? '/usr/bin/pgbench',
  );
  const seedUrl = url.href;
  if (settings.transport === 'unix') url.searchParams.set('host', socketDir);
  return {
    seedUrl,
    url: url.href,
    host: settings.transport === 'unix' ? socketDir : url.hostname,
    port: url.port,
    postmasterPid,
    version,
    pgbench: path.join(bin, 'pgbench'),
  };
}

// ------------------------------------------------------------------------------------------ API runs

/**
 * Request k buys chapter floor(k / readers) of the book for reader k mod readers: consecutive requests are
 * different readers, and no pair repeats until readers × chapters requests.
 */
function purchaseSequence(bench, chapterIds) {
  let k = 0;
  const pairs = bench.tokens.length * chapterIds.length;
  return {
    next() {
      const i = k++;
      return {
        wrapped: i >= pairs,
        cookie: `sid=${bench.tokens[i % bench.tokens.length]}`,
        chapterId: chapterIds[Math.floor(i / bench.tokens.length) % chapterIds.length],
      };
    },
    get used() {
      return k;
    },
  };
}

async function apiRun(port, sequence, seconds) {
  const tally = { bought: 0, owned: 0, other: 0, lastOther: null };
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: settings.concurrency,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        setupRequest(req) {
          const { cookie, chapterId } = sequence.next();
          return { ...req, path: `/api/book/chapter/buy?chapterId=${chapterId}`, headers: { cookie } };
        },
        onResponse(status, body) {
          let answer = null;
          try {
            answer = JSON.parse(body);
          } catch {}
          if (status === 200 && answer?.code === 200 && answer.data.charged === data.PRICE) tally.bought++;
          else if (status === 200 && answer?.code === 200 && answer.data.charged === 0) tally.owned++;
          else {
            tally.other++;
            tally.lastOther = `${status} ${String(body).slice(0, 200)}`;
          }
        },
      },
    ],
  });
  return { result, tally };
}

async function measureApi(label, port, sequence, pids) {
  if (settings.warmupSeconds > 0) {
    const warm = await apiRun(port, sequence, settings.warmupSeconds);
    if (warm.tally.other > 0 || warm.result.errors > 0) {
      throw new Error(
        `${label} warm-up: ${warm.tally.other} failed purchases (last: ${warm.tally.lastOther})`,
      );
    }
  }
  await waitForQuiet(settings.quietWaitMs);
  const before = cpuSnapshot(cpuSides(pids));
  const start = Number(process.hrtime.bigint() / 1000n);
  const { result, tally } = await apiRun(port, sequence, settings.seconds);
  const end = Number(process.hrtime.bigint() / 1000n);
  const cpu = cpuCores(before, cpuSnapshot(cpuSides(pids)));
  if (tally.other > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${label}: ${tally.other} failed purchases, ${result.errors} errors, ${result.timeouts} timeouts (last: ${tally.lastOther})`,
    );
  }
  const run = {
    purchasesPerSec: tally.bought / result.duration,
    requestsPerSec: result.requests.average,
    purchases: tally.bought,
    alreadyOwned: tally.owned,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    durationS: result.duration,
    cpuCores: cpu,
    window: { name: label, start, end, requests: tally.bought + tally.owned },
  };
  console.log(
    `  ${label.padEnd(22)} ${run.purchasesPerSec.toFixed(0).padStart(6)} purchases/s  p50 ${run.latencyP50Ms} ms  p99 ${run.latencyP99Ms} ms  ` +
      coresText(cpu, [
        ['server', 'server'],
        ['postgres', 'postgres'],
        ['loadGenerator', 'autocannon'],
        ['other', 'other'],
      ]),
  );
  return run;
}

// ------------------------------------------------------------------------------------------- pgbench

async function runPgbench(pgInfo, scriptFile, seconds, defines) {
  const args = [
    '-n', // no vacuum of pgbench's own tables: there are none
    '-M',
    settings.pgbenchMode, // extended: parse, bind, execute per statement, as node-postgres sends unnamed ones
    '-c',
    String(settings.concurrency),
    '-j',
    String(Math.min(settings.concurrency, os.cpus().length)),
    '-T',
    String(seconds),
    '-f',
    scriptFile,
    '-h',
    pgInfo.host,
    '-p',
    pgInfo.port,
    '-U',
    'postgres',
    ...Object.entries(defines).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
    'bench_purchase',
  ];
  const { code, out } = await runCollecting(pgInfo.pgbench, args);
  if (code !== 0) throw new Error(`pgbench exited ${code}:\n${out}`);
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`no tps in pgbench output:\n${out}`);
  return { tps, latencyAvgMs: latency, failed, transactions: processed, output: out };
}

async function measurePgbench(pgInfo, scriptFile, defines, pids) {
  if (settings.warmupSeconds > 0) await runPgbench(pgInfo, scriptFile, settings.warmupSeconds, defines);
  await waitForQuiet(settings.quietWaitMs);
  const target = { kind: 'postgres', url: pgInfo.seedUrl };
  const totalsBefore = await data.purchaseTotals(target);
  const before = cpuSnapshot(cpuSides(pids));
  const run = await runPgbench(pgInfo, scriptFile, settings.seconds, defines);
  const cpu = cpuCores(before, cpuSnapshot(cpuSides(pids)));
  const totalsAfter = await data.purchaseTotals(target);
  if (run.failed > 0) throw new Error(`pgbench: ${run.failed} failed transactions`);
  if (totalsAfter.transfers === totalsBefore.transfers) throw new Error('pgbench made no purchase');
  // Random pairs repeat now and then; a repeat is an 'owned' answer, not a purchase. Count real ones.
  const purchases = totalsAfter.transfers - totalsBefore.transfers;
  const result = {
    purchasesPerSec: (run.tps * purchases) / run.transactions,
    transactionsPerSec: run.tps,
    purchases,
    transactions: run.transactions,
    latencyAvgMs: run.latencyAvgMs,
    cpuCores: cpu,
  };
  console.log(
    `  ${'pgbench'.padEnd(22)} ${result.purchasesPerSec.toFixed(0).padStart(6)} purchases/s  (${run.tps.toFixed(0)} tps, ${purchases} of ${run.transactions} real)  avg ${run.latencyAvgMs} ms  ` +
      coresText(cpu, [
        ['postgres', 'postgres'],
        ['loadGenerator', 'pgbench'],
        ['other', 'other'],
      ]),
  );
  return result;
}

function checkTotals(label, totals, expectedTransfers) {
  const problems = [];
  if (totals.transfers === 0) problems.push('no purchase was made');
  if (totals.entriesSum !== 0) problems.push(`entries sum to ${totals.entriesSum}`);
  if (totals.negativeBalances !== 0) problems.push(`${totals.negativeBalances} negative balances`);
  if (totals.unpaidClaims !== 0) problems.push(`${totals.unpaidClaims} claims without their transfer`);
  if (totals.claims !== totals.transfers)
    problems.push(`${totals.claims} claims, ${totals.transfers} transfers`);
  if (expectedTransfers !== undefined && totals.transfers !== expectedTransfers) {
    problems.push(`${totals.transfers} purchase transfers, ${expectedTransfers} purchases answered`);
  }
  if (problems.length > 0) throw new Error(`${label} ledger check failed: ${problems.join('; ')}`);
  console.log(`  ${label} ledger check: ${totals.transfers} purchases, entries sum 0, no negative balance`);
}

// ------------------------------------------------------------------------------------------------ main

async function benchPostgres(workDir) {
  console.log('PostgreSQL:');
  const pgInfo = await startPostgres();
  const target = { kind: 'postgres', url: pgInfo.seedUrl };
  const bench = await data.seedPurchaseBench(target, {
    readers: settings.readers,
    chapters: settings.chaptersPerBook,
    bookNames: ['api', 'pgbench'],
    pgbenchSessions: true,
  });
  console.log(
    `  PostgreSQL ${pgInfo.version}: ${bench.tokens.length} readers with coins, ${settings.chaptersPerBook} chapters a side at ${data.PRICE} coins`,
  );

  const profileDir = profileDirFor('postgres');
  const server = await startServer({
    workDir: path.join(workDir, 'pg-server'),
    env: { DEMO_LIBRARY: 'false', DATABASE_URL: pgInfo.url },
    profileDir,
    timeoutMs: settings.startTimeoutMs,
    indent: '  ',
  });
  const apiChapters = bench.books.find((b) => b.name === 'api').chapterIds;
  const sequence = purchaseSequence(bench, apiChapters);
  const api = await measureApi('API on PostgreSQL', server.port, sequence, {
    server: server.pid,
    postmaster: pgInfo.postmasterPid,
  });
  await server.stop();
  summariseProfile(profileDir, api);
  if (sequence.used > bench.tokens.length * apiChapters.length) {
    console.log('  note: the API run used up its (reader, chapter) pairs and wrapped around');
  }
  const afterApi = await data.purchaseTotals(target);
  checkTotals('API', afterApi);

  const pgChapters = bench.books.find((b) => b.name === 'pgbench').chapterIds;
  const scriptFile = path.join(workDir, 'purchase.pgbench.sql');
  // What the server sends PostgreSQL for one purchase, in the same order: the session lookup, the price,
  // the purchase statement (purchase-data.ts captures them from the server's code). Prices are all PRICE.
  const request = await data.purchaseRequestForPgbench();
  writeFileSync(
    scriptFile,
    [
      // A random reader of this client's own share (readers ≡ client_id modulo the clients), so no two
      // clients buy for one reader at once, as no two API requests in flight do.
      '\\set u :first_user + :client_id + :clients * random(0, (:last_user - :first_user - :client_id) / :clients)',
      '\\set c random(:first_chapter, :last_chapter)',
      `\\set p ${data.PRICE}`,
      ...request.statements,
      '',
    ].join('\n'),
  );
  const pgbench = await measurePgbench(
    pgInfo,
    scriptFile,
    {
      clients: settings.concurrency,
      first_user: bench.firstUserId,
      last_user: bench.lastUserId,
      first_chapter: Math.min(...pgChapters),
      last_chapter: Math.max(...pgChapters),
      // The session lookup's "now": fixed for the run (the sessions expire in a year).
      now: new Date().toISOString(),
      // Constants the server's statements take as parameters (books.published = true).
      ...request.variables,
    },
    { postmaster: pgInfo.postmasterPid },
  );
  checkTotals('pgbench', await data.purchaseTotals(target));
  return { version: pgInfo.version, api, pgbench, ratio: api.purchasesPerSec / pgbench.purchasesPerSec };
}

async function benchPglite(workDir) {
  console.log('PGlite:');
  const serverDir = path.join(workDir, 'pglite-server');
  mkdirSync(serverDir, { recursive: true });
  // The server keeps its embedded database in DATA_DIR/pglite: seed it there before the server opens it.
  const target = { kind: 'pglite', dataDir: path.join(serverDir, 'data') };
  const bench = await data.seedPurchaseBench(target, {
    readers: settings.readers,
    chapters: settings.chaptersPerBook,
    bookNames: ['api'],
  });
  console.log(
    `  ${bench.tokens.length} readers with coins, ${settings.chaptersPerBook} chapters at ${data.PRICE} coins`,
  );
  const profileDir = profileDirFor('pglite');
  const server = await startServer({
    workDir: serverDir,
    env: { DEMO_LIBRARY: 'false' },
    profileDir,
    timeoutMs: settings.startTimeoutMs,
    indent: '  ',
  });
  const sequence = purchaseSequence(bench, bench.books[0].chapterIds);
  const api = await measureApi('API on PGlite', server.port, sequence, { server: server.pid });
  await server.stop();
  summariseProfile(profileDir, api);
  checkTotals('PGlite', await data.purchaseTotals(target));
  return { api };
}

async function main() {
  console.log(
    `yueman purchase bench: concurrency ${settings.concurrency}, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s per run, ${os.cpus().length} CPUs`,
  );
  const workDir = tempDir('yueman-bench-purchase-');
  const report = { benchmark: 'purchase', startedAt: startedAt.toISOString(), settings, aims: AIMS };
  if (settings.targets.includes('postgres')) report.postgres = await benchPostgres(workDir);
  if (settings.targets.includes('pglite')) report.pglite = await benchPglite(workDir);
  report.finishedAt = new Date().toISOString();
  report.machine = machine();

  const lines = [
    '| run | purchases/s | p50 / p99 ms (API), avg ms (pgbench) | server cores | postgres cores | load generator cores | other cores |',
    '|---|---:|---|---:|---:|---:|---:|',
  ];
  const row = (label, r, latency) => {
    const c = (side) => (r.cpuCores ? fmt(r.cpuCores[side], 2) : '–');
    lines.push(
      `| ${label} | ${fmt(r.purchasesPerSec)} | ${latency} | ${c('server')} | ${c('postgres')} | ${c('loadGenerator')} | ${c('other')} |`,
    );
  };
  const summary = [];
  if (report.postgres) {
    const { api, pgbench, ratio } = report.postgres;
    row('API on PostgreSQL', api, `${api.latencyP50Ms} / ${api.latencyP99Ms}`);
    row('pgbench, same statements', pgbench, `${pgbench.latencyAvgMs}`);
    summary.push(
      `PostgreSQL ${report.postgres.version}: API ÷ pgbench = ${fmt(ratio, 2)} (aim ≥ ${AIMS.ratio}: ${ratio >= AIMS.ratio ? 'met' : 'below'})`,
    );
  }
  if (report.pglite) {
    const { api } = report.pglite;
    row('API on PGlite', api, `${api.latencyP50Ms} / ${api.latencyP99Ms}`);
    summary.push(
      `PGlite: ${fmt(api.purchasesPerSec)} purchases/s (aim ≥ ${AIMS.pglite}: ${api.purchasesPerSec >= AIMS.pglite ? 'met' : 'below'})`,
    );
  }
  const table = lines.join('\n');
  console.log(`\n${table}\n\n${summary.join('\n')}\n`);

  writeResults(
    `purchase-${stamp}`,
    report,
    [
      `# Purchase benchmark, ${startedAt.toISOString()}`,
      '',
      `Concurrency ${settings.concurrency} (autocannon connections; pgbench clients), ${settings.warmupSeconds} s warm-up then ` +
        `${settings.seconds} s per run; ${settings.readers} readers; ${report.machine.cpus} CPUs (${report.machine.cpuModel}), Node ${process.version}. ` +
        'Server, PostgreSQL and the load generator share these CPUs.',
      '',
      table,
      '',
      ...summary,
      '',
      ...(profiles.length > 0 ? ['## Server CPU profiles', '', ...profiles, ''] : []),
    ].join('\n'),
  );
}

runMain(main, 'the server and the PostgreSQL cluster');
