// The calls no cache can take, part (c) of `npm run bench`: a priced chapter the reader owns
// (GET /api/book/read_chapter), the reader's account (GET /api/user/info) and a purchase (POST
// /api/book/chapter/buy), requests per second of one server process (the build `npm start` runs, request logging on)
// against a bare Fastify app running the same SQL on the same PostgreSQL database (bench/bare-app.ts: the server's
// own session lookup, services and repositories, nothing else). wrk drives both. Aim: server ≥ 0.8 × bare. Every
// answer of both is checked first (200, the same data); every purchase is a real one (a distinct reader and chapter
// per request). See bench/README.md.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import {
  envNumber,
  fileStamp,
  fmt,
  freePort,
  get,
  loadSettings,
  machine,
  onCleanup,
  root,
  runCollecting,
  runMain,
  startBenchPostgres,
  startServer,
  stopChild,
  tempDir,
  waitUntil,
  writeResults,
} from './bench-kit.mjs';

const settings = {
  ...loadSettings(),
  connections: envNumber('BENCH_CONNECTIONS', 16, 1, 4),
  threads: envNumber('BENCH_THREADS', 2, 1, 1),
  readers: envNumber('BENCH_READERS', 2000, 10, 50),
  chaptersPerBook: envNumber('BENCH_CHAPTERS', 500, 10, 20),
};
const AIM = 0.8;
const data = await tsImport('./purchase-data.ts', import.meta.url);

async function startPostgres() {
  const { url, settings: shown } = await startBenchPostgres('bench_uncached');
  return { url: url.href, version: shown.server_version };
}

/** A request of `method` to `port` with the reader's cookie: status and parsed JSON. */
async function call(port, method, urlPath, cookie) {
  const res = await fetch(`http://127.0.0.1:${port}${urlPath}`, { method, headers: { cookie } });
  return { status: res.status, json: await res.json() };
}

/** A granted page path differs per answer (its expiry is the time it was made): the rest must be equal. */
const withoutGrants = (json) =>
  JSON.parse(JSON.stringify(json).replaceAll(/g\/\d+\/[A-Za-z0-9_-]+\//g, 'g/'));

// ---------------------------------------------------------------------------------------------------- wrk

const lua = (s) => `"${String(s).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
const DONE = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"durationUs":%d,"errors":%d,"status":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
`;

/** The same GET each time, with one reader's cookie. */
const getScript = (cookie) => `wrk.method = "GET"
wrk.headers["Cookie"] = ${lua(cookie)}
${DONE}`;

/**
 * Purchases: request k buys chapter floor(k / readers) for reader k mod readers (each thread takes every
 * threads-th k), so no (reader, chapter) pair repeats until readers × chapters requests.
 */
const buyScript = (tokens, chapterIds) => `local tokens = { ${tokens.map(lua).join(', ')} }
local chapters = { ${chapterIds.join(', ')} }
local nextThread = 0
function setup(thread)
  thread:set("first", nextThread)
  nextThread = nextThread + 1
end
local k
function init(args)
  k = first
end
request = function()
  local reader = k % #tokens
  local chapter = math.floor(k / #tokens) % #chapters
  k = k + ${settings.threads}
  return wrk.format("POST", "/api/book/chapter/buy?chapterId=" .. chapters[chapter + 1], { ["Cookie"] = "sid=" .. tokens[reader + 1] })
end
${DONE}`;

async function runWrk(script, url, seconds) {
  const args = [`-t${settings.threads}`, `-c${settings.connections}`, `-d${seconds}s`, '--timeout', '10s'];
  const { code, out } = await runCollecting(process.env.WRK ?? 'wrk', [...args, '-s', script, url]);
  const line = /WRK_JSON (\{.*\})/.exec(out)?.[1];
  if (code !== 0 || !line) throw new Error(`wrk ${args.join(' ')} ${url} failed: ${out}`);
  const w = JSON.parse(line);
  if (w.errors > 0 || w.status > 0 || w.requests === 0) {
    throw new Error(`wrk ${url}: ${w.requests} answers, ${w.errors} errors, ${w.status} not 2xx`);
  }
  return { reqPerSec: w.requests / (w.durationUs / 1e6), requests: w.requests, p99Ms: w.p99Us / 1000 };
}

// ---------------------------------------------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const workDir = tempDir('yueman-bench-uncached-');
  console.log(
    `yueman uncached calls: wrk -t${settings.threads} -c${settings.connections}, ${settings.seconds} s per run, ${os.cpus().length} CPUs`,
  );
  const postgres = await startPostgres();
  const pageGrantKey = randomBytes(32).toString('hex');
  // The server first: it migrates the empty database (no demo library: the bench makes its own data).
  const server = await startServer({
    workDir: path.join(workDir, 'server'),
    env: {
      DEMO_LIBRARY: 'false',
      DATABASE_URL: postgres.url,
      LOG_LEVEL: 'info',
      PAGE_GRANT_KEY: pageGrantKey,
    },
    timeoutMs: settings.startTimeoutMs,
  });
  const target = { kind: 'postgres', url: postgres.url };
  const bench = await data.seedPurchaseBench(target, {
    readers: settings.readers,
    chapters: settings.chaptersPerBook,
    bookNames: ['server', 'bare', 'owned'],
  });
  const chaptersOf = (name) => bench.books.find((b) => b.name === name).chapterIds;
  console.log(
    `PostgreSQL ${postgres.version}: ${bench.tokens.length} readers with coins, ${settings.chaptersPerBook} priced chapters a side`,
  );

  const barePort = await freePort();
  const bare = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/bare-app.ts'), String(barePort)],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: postgres.url, PAGE_GRANT_KEY: pageGrantKey },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  onCleanup(() => stopChild(bare, 'SIGTERM', 10_000));
  await waitUntil(
    'the bare app',
    bare,
    '/dev/null',
    60_000,
    async () => (await get(barePort, '/api/user/info')).status > 0,
  );

  // The reader owns the first chapter of the 'owned' book (bought through the server).
  const cookie = `sid=${bench.tokens[0]}`;
  const ownedChapter = chaptersOf('owned')[0];
  const bought = await call(server.port, 'POST', `/api/book/chapter/buy?chapterId=${ownedChapter}`, cookie);
  if (bought.json.result !== true)
    throw new Error(`the reader could not buy: ${JSON.stringify(bought.json)}`);
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  const { book_id: bookId, number } = (
    await db.query('select book_id, number from chapters where id = $1', [ownedChapter])
  ).rows[0];
  await db.end();

  const calls = [
    { name: 'owned chapter', path: `/api/book/read_chapter?bookId=${bookId}&number=${number}` },
    { name: 'user info', path: '/api/user/info' },
    { name: 'purchase', path: '/api/book/chapter/buy' },
  ];
  // Both answer the same data (200, result true); a purchase by each buys one chapter of its own book.
  for (const c of calls.slice(0, 2)) {
    const ours = await call(server.port, 'GET', c.path, cookie);
    const theirs = await call(barePort, 'GET', c.path, cookie);
    if (ours.status !== 200 || ours.json.result !== true) throw new Error(`server ${c.path}: ${ours.status}`);
    if (JSON.stringify(withoutGrants(ours.json)) !== JSON.stringify(withoutGrants(theirs.json))) {
      throw new Error(
        `the bare app answers ${c.path} otherwise:\n${JSON.stringify(ours.json)}\n${JSON.stringify(theirs.json)}`,
      );
    }
  }
  for (const [port, book] of [
    [server.port, 'server'],
    [barePort, 'bare'],
  ]) {
    const buy = await call(
      port,
      'POST',
      `/api/book/chapter/buy?chapterId=${chaptersOf(book).at(-1)}`,
      cookie,
    );
    if (buy.status !== 200 || buy.json.data?.charged !== data.PRICE)
      throw new Error(`a purchase on the ${book} side: ${JSON.stringify(buy.json)}`);
  }

  const rows = [];
  for (const c of calls) {
    const row = { call: c.name, path: c.path };
    for (const [side, port] of [
      ['server', server.port],
      ['bare', barePort],
    ]) {
      const script = path.join(workDir, `${side}-${c.name.replaceAll(' ', '-')}.lua`);
      const chapters = chaptersOf(side).slice(0, -1);
      writeFileSync(script, c.name === 'purchase' ? buyScript(bench.tokens, chapters) : getScript(cookie));
      const url = `http://127.0.0.1:${port}${c.name === 'purchase' ? '/' : c.path}`;
      row[side] = await runWrk(script, url, settings.seconds);
      console.log(
        `  ${side.padEnd(6)} ${c.name.padEnd(13)} ${fmt(row[side].reqPerSec).padStart(7)} req/s  p99 ${row[side].p99Ms.toFixed(2)} ms`,
      );
    }
    row.ratio = row.server.reqPerSec / row.bare.reqPerSec;
    rows.push(row);
  }
  const totals = await data.purchaseTotals(target);
  await server.stop();

  const table = [
    '| call | server req/s (1 process) | bare Fastify req/s | ratio | aim ≥ 0.8 |',
    '|---|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.call} | ${fmt(r.server.reqPerSec)} | ${fmt(r.bare.reqPerSec)} | ${fmt(r.ratio, 2)} | ${r.ratio >= AIM ? 'met' : 'below'} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  const report = {
    benchmark: 'uncached',
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    settings,
    machine: { ...machine(), postgres: postgres.version },
    aim: AIM,
    results: rows,
    totals,
  };
  const md = [
    `# Calls no cache can take, ${startedAt.toISOString()}`,
    '',
    `wrk -t${settings.threads} -c${settings.connections}, ${settings.seconds} s per run; PostgreSQL ${postgres.version}; ` +
      'the server as `npm start` runs it (one process, LOG_LEVEL=info) against a bare Fastify app with the same ' +
      'session lookup, services and repositories (bench/bare-app.ts) on the same database.',
    '',
    table,
    '',
  ];
  writeResults(`uncached-${fileStamp(startedAt)}`, report, md.join('\n'));
}

runMain(main, 'the server, the bare app and PostgreSQL');
