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
import { childPids, cpuCores, cpuSnapshot, pinTo, ticksOf, waitForQuiet } from './cpu.mjs';
import { summariseProfiles } from './profile-summary.mjs';

const settings = {
  ...loadSettings(),
  concurrency: envNumber('BENCH_CONNECTIONS', 16, 1, 4),
  // pgbench's clients: as many as the server's connections to PostgreSQL (its pool of 10, db/client.ts), so both
  // sides keep the same number of backends at work, however many HTTP connections autocannon opens.
  pgbenchClients: envNumber('BENCH_PGBENCH_CLIENTS', 10, 1, 4),
  readers: envNumber('BENCH_READERS', 2000, 10, 100),
  chaptersPerBook: envNumber('BENCH_CHAPTERS', 500, 10, 20),
  // How the server and pgbench reach PostgreSQL: 'tcp' (127.0.0.1) or 'unix' (the cluster's socket).
  transport: process.env.BENCH_PG_TRANSPORT === 'unix' ? 'unix' : 'tcp',
  // pgbench's query mode: 'extended' (default) or 'prepared' (every statement named and parsed once).
  pgbenchMode: process.env.BENCH_PGBENCH_MODE === 'extended' ? 'extended' : 'prepared',
  // 'split' (default on 2 or more cores): PostgreSQL on the last core, the server, the load generator and pgbench on
  // the others, as a deployment gives the database a machine of its own; 'shared': everything on every core.
  cores: process.env.BENCH_CORES === 'shared' || os.cpus().length < 2 ? 'shared' : 'split',
  targets: envList('BENCH_TARGETS', 'postgres,pglite'),
  // What is measured: coin purchases, wait-for-free unlocks, ticket unlocks (each on both sides).
  cases: envList('BENCH_CASES', 'coins,wait_free,ticket'),
  // Wait-for-free books a side (a reader unlocks one chapter of each), and tickets per reader (one chapter each).
  unlockRounds: envNumber('BENCH_UNLOCK_ROUNDS', 40, 2, 40),
};
for (const c of settings.cases) {
  if (!['coins', 'wait_free', 'ticket'].includes(c)) throw new Error(`BENCH_CASES: unknown case "${c}"`);
}
// API ÷ pgbench per case on PostgreSQL; PGlite's purchases/s.
const AIMS = { ratio: 0.5, unlockRatio: 0.7, pglite: 500 };
const CASE_LABELS = { coins: 'coins', wait_free: 'wait-for-free', ticket: 'ticket' };

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

/**
 * Wait-for-free: request k unlocks, for reader k mod readers, the first chapter of wait-for-free book
 * floor(k / readers): each (reader, book) once, so every reader's wait is over (never started) when asked.
 * Ticket: request k unlocks chapter floor(k / readers) of the ticket book for reader k mod readers with one of the
 * reader's tickets. Both stop being real work past readers × rounds requests (answered 999 and failed as such).
 */
function unlockSequence(bench, side, by) {
  let k = 0;
  const readers = bench.tokens.length;
  return {
    next() {
      const i = k++;
      const round = Math.floor(i / readers);
      const chapterId = by === 'wait_free' ? side.waitChapterIds[round] : side.ticketChapterIds[round];
      const bookId = by === 'wait_free' ? side.waitBookIds[round] : side.ticketBookId;
      return {
        cookie: `sid=${bench.tokens[i % readers]}`,
        bookId,
        chapterId,
        exhausted: chapterId === undefined,
      };
    },
    get used() {
      return k;
    },
  };
}

/** The request and the judge of an answer, per case: `done` is real work, `owned` an already-held answer. */
function caseRequest(kase) {
  if (kase === 'coins') {
    return {
      build: ({ cookie, chapterId }) => ({
        path: `/api/book/chapter/buy?chapterId=${chapterId}`,
        headers: { cookie },
      }),
      judge: (answer) =>
        answer?.code === 200 && answer.data.charged === data.PRICE
          ? 'done'
          : answer?.code === 200 && answer.data.charged === 0
            ? 'owned'
            : 'other',
    };
  }
  return {
    build: ({ cookie, bookId, chapterId, exhausted }) => ({
      path: '/api/book/chapter/unlock',
      headers: { cookie, 'content-type': 'application/json' },
      // Past the data's rounds: a chapter that does not exist, answered 404 and failed as such.
      body: JSON.stringify({ bookId: bookId ?? 1, chapterId: exhausted ? 2147483647 : chapterId, by: kase }),
    }),
    // Whether this answer made an unlock or found one is told by the rows counted after the run.
    judge: (answer) => (answer?.code === 200 && answer.data.source === kase ? 'done' : 'other'),
  };
}

async function apiRun(port, sequence, seconds, kase) {
  const tally = { bought: 0, owned: 0, other: 0, lastOther: null };
  const { build, judge } = caseRequest(kase);
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
          return { ...req, ...build(sequence.next()) };
        },
        onResponse(status, body) {
          let answer = null;
          try {
            answer = JSON.parse(body);
          } catch {}
          const verdict = status === 200 ? judge(answer) : 'other';
          if (verdict === 'done') tally.bought++;
          else if (verdict === 'owned') tally.owned++;
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

async function measureApi(label, port, sequence, pids, kase = 'coins', made = undefined) {
  if (settings.warmupSeconds > 0) {
    const warm = await apiRun(port, sequence, settings.warmupSeconds, kase);
    if (warm.tally.other > 0 || warm.result.errors > 0) {
      throw new Error(
        `${label} warm-up: ${warm.tally.other} failed purchases (last: ${warm.tally.lastOther})`,
      );
    }
  }
  await waitForQuiet(settings.quietWaitMs);
  const madeBefore = made ? await made() : 0;
  const before = cpuSnapshot(cpuSides(pids));
  const start = Number(process.hrtime.bigint() / 1000n);
  const { result, tally } = await apiRun(port, sequence, settings.seconds, kase);
  const end = Number(process.hrtime.bigint() / 1000n);
  const cpu = cpuCores(before, cpuSnapshot(cpuSides(pids)));
  if (tally.other > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${label}: ${tally.other} failed requests, ${result.errors} errors, ${result.timeouts} timeouts (last: ${tally.lastOther})`,
    );
  }
  // Unlocks: every answered unlock must be a stored unlock made in this run (none found already held). Requests
  // still in flight when autocannon stops (at most one a connection, here and at the warm-up's end) are stored
  // but not answered to it.
  if (made) {
    const rows = (await made()) - madeBefore;
    if (rows < tally.bought || rows > tally.bought + 2 * settings.concurrency) {
      throw new Error(`${label}: ${tally.bought} unlocks answered, ${rows} stored during the run`);
    }
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
    `  ${label.padEnd(30)} ${run.purchasesPerSec.toFixed(0).padStart(6)} /s  p50 ${run.latencyP50Ms} ms  p99 ${run.latencyP99Ms} ms  ` +
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
    settings.pgbenchMode, // prepared: every statement parsed once per client, as the server names all of them
    '-c',
    String(settings.pgbenchClients),
    '-j',
    String(Math.min(settings.pgbenchClients, os.cpus().length)),
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

/**
 * pgbench's run of one case; `made` counts the rows of real work (purchase transfers, stored unlocks). A client's
 * variables live across its transactions, so `-D k=0` starts a counter per client that the unlock scripts step.
 */
async function measurePgbench(pgInfo, scriptFile, defines, pids, made, label = 'pgbench') {
  let k = 0;
  if (settings.warmupSeconds > 0) {
    const warm = await runPgbench(pgInfo, scriptFile, settings.warmupSeconds, { ...defines, k });
    // The measured run's clients start past what any warm-up client used (clients run about evenly; a pair used
    // twice would show as fewer rows than transactions, and the unlock cases fail on that).
    k = Math.ceil((warm.transactions / settings.pgbenchClients) * 1.5) + 10;
  }
  await waitForQuiet(settings.quietWaitMs);
  const totalsBefore = await made();
  const measuredDefines = { ...defines, k };
  const before = cpuSnapshot(cpuSides(pids));
  const run = await runPgbench(pgInfo, scriptFile, settings.seconds, measuredDefines);
  const cpu = cpuCores(before, cpuSnapshot(cpuSides(pids)));
  const totalsAfter = await made();
  if (run.failed > 0) throw new Error(`${label}: ${run.failed} failed transactions`);
  if (totalsAfter === totalsBefore) throw new Error(`${label} did no work`);
  // Random pairs repeat now and then; a repeat is an 'owned' answer, not a purchase. Count real ones.
  const purchases = totalsAfter - totalsBefore;
  const result = {
    purchasesPerSec: (run.tps * purchases) / run.transactions,
    transactionsPerSec: run.tps,
    purchases,
    transactions: run.transactions,
    latencyAvgMs: run.latencyAvgMs,
    cpuCores: cpu,
  };
  console.log(
    `  ${label.padEnd(30)} ${result.purchasesPerSec.toFixed(0).padStart(6)} /s  (${run.tps.toFixed(0)} tps, ${purchases} of ${run.transactions} real)  avg ${run.latencyAvgMs} ms  ` +
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

/** The readers of the unlock cases: each client of pgbench takes its own share, as for purchases. */
const unlockData = async (target, bench, sides) =>
  data.seedUnlockBench(target, {
    sides,
    firstUserId: bench.firstUserId,
    lastUserId: bench.lastUserId,
    waitBooks: settings.unlockRounds,
    waitChapters: 3,
    ticketChapters: settings.unlockRounds,
    ticketsPerReader: settings.unlockRounds,
  });

/** Rows of real work of a case on one side: stored unlocks of the side's books (checked whole first). */
function unlockCounter(target, side, kase) {
  return async () => {
    const t = await data.unlockTotals(target, side);
    if (t.ticketMismatch !== 0)
      throw new Error(`${t.ticketMismatch} ticket unlocks without their spent ticket`);
    if (t.ticketsSpent !== t.ticket)
      throw new Error(`${t.ticketsSpent} tickets spent, ${t.ticket} ticket unlocks`);
    if (t.waitClocks !== t.waitFree)
      throw new Error(`${t.waitFree} wait-free unlocks, ${t.waitClocks} waits restarted`);
    return kase === 'wait_free' ? t.waitFree : t.ticket;
  };
}

/** The API runs of every case against a running server; each case's run and its checks. */
async function apiCases(where, port, bench, sides, target, pids) {
  const out = {};
  for (const kase of settings.cases) {
    const label = `API ${CASE_LABELS[kase]} on ${where}`;
    if (kase === 'coins') {
      const apiChapters = bench.books.find((b) => b.name === 'api').chapterIds;
      const sequence = purchaseSequence(bench, apiChapters);
      out.coins = await measureApi(label, port, sequence, pids);
      if (sequence.used > bench.tokens.length * apiChapters.length) {
        console.log('  note: the API run used up its (reader, chapter) pairs and wrapped around');
      }
      checkTotals(`${where} API`, await data.purchaseTotals(target));
    } else {
      const side = sides.find((x) => x.name === 'api');
      const sequence = unlockSequence(bench, side, kase);
      // PGlite's data directory is the server's alone while it runs: its rows are counted after it stops.
      const made = target.kind === 'postgres' ? unlockCounter(target, side, kase) : undefined;
      out[kase] = await measureApi(label, port, sequence, pids, kase, made);
    }
  }
  return out;
}

/** pgbench's script of an unlock case: the per-client counter picks a pair no other transaction takes. */
async function unlockScript(workDir, kase) {
  const request = await data.unlockRequestForPgbench(kase);
  const file = path.join(workDir, `${kase}.pgbench.sql`);
  writeFileSync(
    file,
    [
      // Transaction i of a client: reader i mod per_client of the client's share (readers ≡ client_id modulo
      // the clients), round i / per_client (the wait-for-free book, or the ticket book's chapter).
      '\\set i :k',
      '\\set k :k + 1',
      '\\set u :first_user + :client_id + :clients * (:i % :per_client)',
      '\\set round :i / :per_client',
      ...(kase === 'wait_free'
        ? ['\\set b :first_book + :round', '\\set c :first_chapter + :round * :book_chapters']
        : ['\\set b :ticket_book', '\\set c :first_chapter + :round']),
      ...request.statements,
      '',
    ].join('\n'),
  );
  return { file, variables: request.variables };
}

/**
 * BENCH_CORES=split: PostgreSQL (the postmaster, its backends and the ones it forks later) on the last core; this
 * process (autocannon), the server and pgbench, started from here, on the others. Both sides of a case then have
 * the same core for the database, and the ratio asks whether the API keeps it as busy as pgbench does, not how the
 * HTTP hop's CPU and the database shared two cores (bench/README.md). Undone by the returned function.
 */
function splitCores(postmasterPid) {
  if (settings.cores !== 'split') return () => undefined;
  const last = os.cpus().length - 1;
  const pinned =
    pinTo(postmasterPid, String(last)) &&
    childPids(postmasterPid).every((pid) => pinTo(pid, String(last))) &&
    pinTo(process.pid, last === 1 ? '0' : `0-${last - 1}`);
  const undo = () => {
    pinTo(process.pid, `0-${last}`);
    pinTo(postmasterPid, `0-${last}`);
  };
  if (!pinned) {
    // No taskset, or pinning refused (a container's seccomp): the run is made with the cores shared, and says so.
    undo();
    settings.cores = 'shared';
    console.log('  cores NOT split (taskset could not pin the processes): the figures are of shared cores');
    return () => undefined;
  }
  console.log(`  cores split: PostgreSQL on CPU ${last}, the server, autocannon and pgbench on the others`);
  return undo;
}

async function benchPostgres(workDir) {
  console.log('PostgreSQL:');
  const pgInfo = await startPostgres();
  const unsplit = splitCores(pgInfo.postmasterPid);
  const target = { kind: 'postgres', url: pgInfo.seedUrl };
  const bench = await data.seedPurchaseBench(target, {
    readers: settings.readers,
    chapters: settings.chaptersPerBook,
    bookNames: ['api', 'pgbench'],
    pgbenchSessions: true,
  });
  const unlocking = settings.cases.some((c) => c !== 'coins');
  const sides = unlocking ? await unlockData(target, bench, ['api', 'pgbench']) : [];
  console.log(
    `  PostgreSQL ${pgInfo.version}: ${bench.tokens.length} readers with coins, ${settings.chaptersPerBook} chapters a side at ${data.PRICE} coins` +
      (unlocking
        ? `; ${settings.unlockRounds} wait-for-free books a side, ${settings.unlockRounds} tickets a reader a side`
        : ''),
  );

  const profileDir = profileDirFor('postgres');
  const server = await startServer({
    workDir: path.join(workDir, 'pg-server'),
    env: { DEMO_LIBRARY: 'false', DATABASE_URL: pgInfo.url },
    profileDir,
    timeoutMs: settings.startTimeoutMs,
    indent: '  ',
  });
  const api = await apiCases('PostgreSQL', server.port, bench, sides, target, {
    server: server.pid,
    postmaster: pgInfo.postmasterPid,
  });
  await server.stop();
  for (const run of Object.values(api)) summariseProfile(profileDir, run);

  const common = {
    clients: settings.pgbenchClients,
    first_user: bench.firstUserId,
    last_user: bench.lastUserId,
    // The session lookup's "now": fixed for the run (the sessions expire in a year).
    now: new Date().toISOString(),
  };
  const cases = {};
  for (const kase of settings.cases) {
    const label = `pgbench ${CASE_LABELS[kase]}`;
    let pgbench;
    if (kase === 'coins') {
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
      pgbench = await measurePgbench(
        pgInfo,
        scriptFile,
        {
          ...common,
          first_chapter: Math.min(...pgChapters),
          last_chapter: Math.max(...pgChapters),
          // Constants the server's statements take as parameters (books.published = true).
          ...request.variables,
        },
        { postmaster: pgInfo.postmasterPid },
        async () => (await data.purchaseTotals(target)).transfers,
        label,
      );
      checkTotals('pgbench', await data.purchaseTotals(target));
    } else {
      const side = sides.find((x) => x.name === 'pgbench');
      const script = await unlockScript(workDir, kase);
      pgbench = await measurePgbench(
        pgInfo,
        script.file,
        {
          ...common,
          per_client: Math.floor(bench.tokens.length / settings.pgbenchClients),
          first_book: side.waitBookIds[0],
          book_chapters: 3,
          ticket_book: side.ticketBookId,
          first_chapter: kase === 'wait_free' ? side.waitChapterIds[0] : side.ticketChapterIds[0],
          ...script.variables,
        },
        { postmaster: pgInfo.postmasterPid },
        unlockCounter(target, side, kase),
        label,
      );
      // Every transaction made its unlock: no pair was taken twice and every wait was over.
      if (pgbench.purchases !== pgbench.transactions) {
        throw new Error(
          `${label}: ${pgbench.purchases} unlocks stored by ${pgbench.transactions} transactions`,
        );
      }
    }
    cases[kase] = { api: api[kase], pgbench, ratio: api[kase].purchasesPerSec / pgbench.purchasesPerSec };
  }
  unsplit();
  return { version: pgInfo.version, cases, cores: settings.cores };
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
  const sides = settings.cases.some((c) => c !== 'coins') ? await unlockData(target, bench, ['api']) : [];
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
  const api = await apiCases('PGlite', server.port, bench, sides, target, { server: server.pid });
  await server.stop();
  for (const kase of settings.cases.filter((c) => c !== 'coins')) {
    const stored = await unlockCounter(target, sides[0], kase)();
    if (stored < api[kase].purchases) {
      throw new Error(
        `PGlite ${CASE_LABELS[kase]}: ${api[kase].purchases} unlocks answered, ${stored} stored`,
      );
    }
    console.log(`  PGlite ${CASE_LABELS[kase]} check: ${stored} unlocks stored, each whole`);
  }
  for (const run of Object.values(api)) summariseProfile(profileDir, run);
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
    '| run | purchases or unlocks/s | p50 / p99 ms (API), avg ms (pgbench) | server cores | postgres cores | load generator cores | other cores |',
    '|---|---:|---|---:|---:|---:|---:|',
  ];
  const row = (label, r, latency) => {
    const c = (side) => (r.cpuCores ? fmt(r.cpuCores[side], 2) : '–');
    lines.push(
      `| ${label} | ${fmt(r.purchasesPerSec)} | ${latency} | ${c('server')} | ${c('postgres')} | ${c('loadGenerator')} | ${c('other')} |`,
    );
  };
  const summary = [];
  for (const kase of settings.cases) {
    const what = CASE_LABELS[kase];
    const pg = report.postgres?.cases[kase];
    if (pg) {
      row(`API on PostgreSQL, ${what}`, pg.api, `${pg.api.latencyP50Ms} / ${pg.api.latencyP99Ms}`);
      row(`pgbench, same statements, ${what}`, pg.pgbench, `${pg.pgbench.latencyAvgMs}`);
      const aim = kase === 'coins' ? AIMS.ratio : AIMS.unlockRatio;
      // The same figure per core PostgreSQL got: on two shared cores the API side's server and load generator take
      // CPU that pgbench's side leaves to PostgreSQL, so the plain ratio also measures how the cores were shared.
      const perCore = (r) => (r.cpuCores?.postgres ? r.purchasesPerSec / r.cpuCores.postgres : 0);
      const perCoreRatio = perCore(pg.pgbench) ? perCore(pg.api) / perCore(pg.pgbench) : 0;
      summary.push(
        `PostgreSQL ${report.postgres.version}, ${what}: API ÷ pgbench (-M ${settings.pgbenchMode}) = ${fmt(pg.ratio, 2)} (aim ≥ ${aim}: ${pg.ratio >= aim ? 'met' : 'below'}); ` +
          `per PostgreSQL core ${fmt(perCore(pg.api))} ÷ ${fmt(perCore(pg.pgbench))} = ${fmt(perCoreRatio, 2)}`,
      );
    }
    const lite = report.pglite?.api[kase];
    if (lite) {
      row(`API on PGlite, ${what}`, lite, `${lite.latencyP50Ms} / ${lite.latencyP99Ms}`);
      if (kase === 'coins') {
        summary.push(
          `PGlite: ${fmt(lite.purchasesPerSec)} purchases/s (aim ≥ ${AIMS.pglite}: ${lite.purchasesPerSec >= AIMS.pglite ? 'met' : 'below'})`,
        );
      }
    }
  }
  const table = lines.join('\n');
  console.log(`\n${table}\n\n${summary.join('\n')}\n`);

  writeResults(
    `purchase-${stamp}`,
    report,
    [
      `# Purchase benchmark, ${startedAt.toISOString()}`,
      '',
      `Concurrency ${settings.concurrency} autocannon connections (the server's pool: 10 connections to PostgreSQL), ${settings.pgbenchClients} pgbench clients, ${settings.warmupSeconds} s warm-up then ` +
        `${settings.seconds} s per run; ${settings.readers} readers; ${report.machine.cpus} CPUs (${report.machine.cpuModel}), Node ${process.version}. ` +
        (settings.cores === 'split'
          ? 'PostgreSQL ran on the last CPU, the server, autocannon and pgbench on the others (BENCH_CORES=split); PGlite on all.'
          : 'Server, PostgreSQL and the load generator share these CPUs (BENCH_CORES=shared).') +
        ` pgbench -M ${settings.pgbenchMode}.`,
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
