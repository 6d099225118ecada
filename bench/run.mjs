// `npm run bench`: the foundation benchmark. Starts the server as `npm start` runs it (the built
// apps/server/dist/main.js, default settings: request logging on, one process on the embedded database) on a
// throwaway data directory, discovers four URLs (home, a list page, a book detail, a cached page image), copies the
// exact bytes it answers to a browser's request headers into an nginx root, nginx sending the same headers, puts the
// shipped nginx site (deploy/nginx/) in front of the server, and drives each with wrk (a C client: a JavaScript one
// spends more CPU per response than either server on 2 cores): (a) the shipped site, warm, against nginx's files,
// both over TLS; (b) the server alone against nginx's files. The calls no cache can take: bench/uncached.mjs.
// See bench/README.md.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import {
  envList,
  envNumber,
  fileStamp,
  fmt,
  get as getWith,
  loadSettings,
  machine,
  resultsDir,
  runMain,
  sleep,
  startServer,
  tempDir,
  writeResults,
} from './bench-kit.mjs';
import {
  cpuCores,
  cpuSnapshot,
  descendantPids,
  NOISE_CORES,
  reapedTicks,
  ticksOf,
  waitForQuiet,
} from './cpu.mjs';
import { certificate, findNginx, startFront, startNginx } from './nginx.mjs';
import { summariseProfiles } from './profile-summary.mjs';

// ---------------------------------------------------------------------------------------------- settings

const FLAG_OFF = ['0', 'false', 'no', 'off'];
const settings = {
  ...loadSettings(),
  connections: envNumber('BENCH_CONNECTIONS', 50, 1, 8),
  threads: envNumber('BENCH_THREADS', 2, 1, 1),
  targets: envList('BENCH_TARGETS'),
  retries: envNumber('BENCH_RETRIES', 2, 0, 0),
  // Request logs as `npm start` writes them (LOG_LEVEL=info, JSON lines on stdout, here into a file); off: warn.
  logging: !FLAG_OFF.includes((process.env.BENCH_LOG ?? 'on').toLowerCase()),
  // The server's WEB_CONCURRENCY; unset: the server's own default (every core), as `npm start`.
  webConcurrency: process.env.BENCH_WEB_CONCURRENCY || undefined,
  // A PostgreSQL database for the server (an empty one: the demo library is created in it) instead of PGlite, so
  // that WEB_CONCURRENCY may be above 1. Never printed: it may hold a password.
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  // Another build of the server to measure instead of this checkout's (a "before" figure): its main.js.
  serverMain: process.env.BENCH_SERVER_MAIN ? path.resolve(process.env.BENCH_SERVER_MAIN) : undefined,
};

// The aims: (a) the shipped nginx site in front of the server, its cache warm, at >= 0.9 x nginx serving the same
// bytes from files (nginx on both sides: less points to a config mistake); (b) the server alone against nginx has
// no aim (a figure for operators who run without a proxy). Reported against, not gates: a miss does not fail the run.
const AIMS = { front: 0.9 };
/** The four sides: the server alone and nginx's files over plain HTTP (b); the shipped site and the files over TLS (a). */
const SIDES = ['server', 'nginx', 'front', 'files'];
const TLS_SIDES = new Set(['front', 'files']);

// What a phone's browser sends (the web app's fetch for the API, an <img> for pages), Host and Connection aside.
// Both sides get exactly these; the server answers compressible bodies brotli-encoded, so nginx serves the same
// brotli bytes with the same Content-Encoding.
const BROWSER = {
  'User-Agent':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Accept-Encoding': 'gzip, deflate, br',
  'Accept-Language': 'zh-CN,zh-Hans;q=0.9',
};
const REQUEST_HEADERS = {
  static: { ...BROWSER, Accept: 'application/json, text/plain, */*' },
  image: { ...BROWSER, Accept: 'image/webp,image/avif,image/*,*/*;q=0.8' },
};

// -------------------------------------------------------------------------------------------- helpers

const get = (port, urlPath, headers, timeoutMs) => getWith(port, urlPath, { headers, timeoutMs });

async function getJson(port, urlPath) {
  // Identity bytes here: the discovery reads the JSON, the captured bodies come from captureBodies.
  const res = await get(port, urlPath, { 'User-Agent': BROWSER['User-Agent'] });
  if (res.status !== 200)
    throw new Error(`GET ${urlPath}: HTTP ${res.status}: ${res.body.toString().slice(0, 300)}`);
  const json = JSON.parse(res.body.toString('utf8'));
  if (json.code !== 200) throw new Error(`GET ${urlPath}: code ${json.code} ${json.msg}`);
  return json.data;
}

/**
 * One answer as it crosses a kept-alive connection (status line, headers, body), as wrk reads it: its size and its
 * body. The answer must have a Content-Length (a kept static answer or a file does).
 */
function rawResponse(port, urlPath, headers, ca) {
  return new Promise((resolve, reject) => {
    const socket = ca
      ? tls.connect({ port, host: '127.0.0.1', ca, servername: undefined })
      : net.connect(port, '127.0.0.1');
    const lines = [`GET ${urlPath} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    let raw = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      raw = Buffer.concat([raw, chunk]);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = raw.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (!Number.isFinite(length)) {
        socket.destroy();
        reject(new Error(`GET ${urlPath}: an answer without Content-Length:\n${head}`));
      } else if (raw.length >= end + 4 + length) {
        socket.destroy();
        resolve({ head, bytes: end + 4 + length, body: raw.subarray(end + 4, end + 4 + length) });
      }
    });
    socket.on('error', reject);
    socket.setTimeout(30_000, () => socket.destroy(new Error(`GET ${urlPath}: no answer in 30 s`)));
  });
}

// --------------------------------------------------------------------------------------------- targets

const TARGET_NAMES = ['home', 'list', 'detail', 'image'];

/** The four URLs, discovered from the API as a reader's phone would. */
async function discoverTargets(port) {
  const homePath = '/api/book/home/index';
  const listPath = '/api/book/query/all/0/1';
  await getJson(port, homePath);
  const list = await getJson(port, listPath);
  const books = list.bookList ?? [];
  if (books.length === 0) throw new Error(`${listPath} lists no books: is the demo library there?`);
  const detailPath = `/api/book/detail/${books[0].bookId}`;
  await getJson(port, detailPath);

  // The first book whose chapter 1 is readable without an account gives the page image.
  let picPath = null;
  for (const book of books) {
    const res = await get(port, `/api/book/read_chapter?bookId=${book.bookId}&number=1`, {});
    if (res.status !== 200) continue;
    const chapter = JSON.parse(res.body.toString('utf8'));
    if (chapter.code === 200 && chapter.data?.bookPics?.length > 0) {
      picPath = chapter.data.bookPics[0];
      break;
    }
  }
  if (!picPath) throw new Error('no book of the first list page has a readable chapter 1 with page images');
  const imageRaw = `/${picPath}_500_0.img`;
  const imagePath = encodeURI(imageRaw);

  return [
    { name: 'home', kind: 'static', label: 'home index', path: homePath, rawPath: homePath },
    { name: 'list', kind: 'static', label: 'list page', path: listPath, rawPath: listPath },
    { name: 'detail', kind: 'static', label: 'book detail', path: detailPath, rawPath: detailPath },
    { name: 'image', kind: 'image', label: 'cached image (500w)', path: imagePath, rawPath: imageRaw },
  ];
}

/** Headers nginx makes itself (or that belong to one connection): every other header of the server is copied. */
const OWN_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-type',
  'server',
]);

/**
 * The exact bytes and headers the server answers a browser's request with (the image asked for twice: the second
 * answer comes from the cache). A request with the same headers to any process of the server gets the same answer.
 */
async function captureBodies(port, targets) {
  for (const target of targets) {
    target.requestHeaders = REQUEST_HEADERS[target.kind];
    let res = await get(port, target.path, target.requestHeaders, 120_000);
    res = await get(port, target.path, target.requestHeaders);
    if (res.status !== 200) throw new Error(`GET ${target.path}: HTTP ${res.status}`);
    target.body = res.body;
    target.bytes = res.body.length;
    target.sha1 = createHash('sha1').update(res.body).digest('hex');
    target.contentType = res.headers['content-type'] ?? 'application/octet-stream';
    target.encoding = res.headers['content-encoding'] ?? 'identity';
    target.headers = Object.entries(res.headers).filter(([name]) => !OWN_HEADERS.has(name));
    // nginx would read `$` in a header value as a variable.
    if (target.headers.some(([, value]) => String(value).includes('$'))) {
      throw new Error(`a header of ${target.path} holds a "$", which nginx cannot send as it is`);
    }
    console.log(
      `  ${target.name.padEnd(6)} ${target.path}  ${target.bytes} B ${target.encoding}  ${target.contentType}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------- wrk

/** wrk's own statistics, printed by its `done` hook (no per-request Lua: wrk's fast path stays on). */
function wrkScript(headers) {
  const lua = (s) => `"${String(s).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return `-- generated by bench/run.mjs: the request headers, and wrk's figures as one JSON line
wrk.method = "GET"
${Object.entries(headers)
  .map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`)
  .join('\n')}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,' ..
    '"timeout":%d,"meanUs":%.1f,"maxUs":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"p999Us":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.max, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9)))
end
`;
}

function findWrk() {
  for (const candidate of [process.env.WRK, '/usr/bin/wrk', '/usr/local/bin/wrk']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  throw new Error('wrk not found: apt-get install -y wrk (or set WRK=/path/to/wrk)');
}

/** One wrk run: its figures. */
function runWrk(bin, script, url, seconds) {
  return new Promise((resolve, reject) => {
    const args = [
      `-t${settings.threads}`,
      `-c${settings.connections}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      script,
      url,
    ];
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = /WRK_JSON (\{.*\})/.exec(out)?.[1];
      if (code !== 0 || !line) reject(new Error(`wrk ${args.join(' ')} failed (${code}): ${err}${out}`));
      else resolve({ ...JSON.parse(line), text: out });
    });
  });
}

function summarise(w) {
  const seconds = w.durationUs / 1e6;
  return {
    reqPerSec: w.requests / seconds,
    requests: w.requests,
    bytesPerResponse: w.requests > 0 ? w.bytes / w.requests : 0,
    latencyMeanMs: w.meanUs / 1000,
    latencyP50Ms: w.p50Us / 1000,
    latencyP90Ms: w.p90Us / 1000,
    latencyP99Ms: w.p99Us / 1000,
    latencyP999Ms: w.p999Us / 1000,
    latencyMaxMs: w.maxUs / 1000,
    errors: { connect: w.connect, read: w.read, write: w.write, status: w.status, timeout: w.timeout },
    durationS: seconds,
  };
}

// ---------------------------------------------------------------------------------------- CPU accounting

// The sides of a run, each counted per pid (processes may come and go: nginx's or the server's workers): the
// server (its process and every process under it), nginx (master and workers) and wrk.
const perPid = (pids) => new Map(pids.map((pid) => [pid, ticksOf(pid)]));
const cpuSides = (pids) => ({
  server: () => perPid([pids.server, ...descendantPids(pids.server)]),
  nginx: () => perPid([pids.nginx, ...descendantPids(pids.nginx)]),
  front: () => perPid([pids.front, ...descendantPids(pids.front)]),
  // wrk has exited (and been reaped) when the second snapshot is taken: its ticks are this process's reaped children's.
  wrk: () => reapedTicks(process.pid),
});

/** When the measured server runs happened (µs, monotonic clock), to cut the CPU profile to them. */
const profileWindows = [];

/** Measures; a run disturbed by other processes is measured again (BENCH_RETRIES), keeping the quietest. */
async function measure(side, port, target, pids, wrk) {
  let best = null;
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    await waitForQuiet(settings.quietWaitMs);
    const run = await measureOnce(side, port, target, pids, wrk);
    const other = run.cpuCores?.other ?? 0;
    if (!best || other < (best.cpuCores?.other ?? 0)) best = run;
    if (other <= NOISE_CORES) break;
    if (attempt < settings.retries)
      console.log(`  ${other.toFixed(2)} cores used elsewhere during the run: again`);
  }
  if (side === 'server') profileWindows.push(best.window);
  return best;
}

function checkRun(side, target, run, what) {
  // A short warm-up over TLS on a busy machine may end before any answer (50 handshakes): the run itself may not.
  if (what === 'warm-up' && run.requests === 0) return;
  const e = run.errors;
  const errors = e.connect + e.read + e.write + e.status + e.timeout;
  // Every answer must be the captured one: wrk counts the bytes it read, heads included.
  const off = Math.abs(run.bytesPerResponse - target.responseBytes[side]) / target.responseBytes[side];
  if (errors > 0 || run.requests === 0 || off > 0.01) {
    throw new Error(
      `${side} ${target.name} ${what}: ${run.requests} answers, errors ${JSON.stringify(e)}, ` +
        `${run.bytesPerResponse.toFixed(0)} B per answer where ${target.responseBytes[side]} B were expected`,
    );
  }
}

async function measureOnce(side, port, target, pids, wrk) {
  const url = `${TLS_SIDES.has(side) ? 'https' : 'http'}://127.0.0.1:${port}${target.path}`;
  if (settings.warmupSeconds > 0) {
    const warm = summarise(await runWrk(wrk.bin, target.script, url, settings.warmupSeconds));
    checkRun(side, target, warm, 'warm-up');
  }
  // The first snapshot as wrk starts, the second once it has exited.
  const running = runWrk(wrk.bin, target.script, url, settings.seconds);
  const cpuBefore = cpuSnapshot(cpuSides(pids));
  const start = Number(process.hrtime.bigint() / 1000n);
  const run = summarise(await running);
  const end = Number(process.hrtime.bigint() / 1000n);
  run.cpuCores = cpuCores(cpuBefore, cpuSnapshot(cpuSides(pids)));
  run.window = { name: target.label, start, end, requests: run.requests };
  const line = `  ${side.padEnd(6)} ${target.name.padEnd(6)} ${fmt(run.reqPerSec).padStart(8)} req/s  p50 ${run.latencyP50Ms.toFixed(2)} ms  p99 ${run.latencyP99Ms.toFixed(2)} ms`;
  const c = run.cpuCores;
  console.log(
    c
      ? `${line}  cores: server ${c.server.toFixed(2)} nginx ${(c.nginx + c.front).toFixed(2)} wrk ${c.wrk.toFixed(2)} other ${c.other.toFixed(2)}`
      : line,
  );
  checkRun(side, target, run, 'run');
  return run;
}

// ---------------------------------------------------------------------------------------------- report

const met = (ok) => (ok ? 'met' : 'below');

function table(rows) {
  const lines = [
    '| target | body | (a) shipped nginx site req/s | nginx files (TLS) req/s | (a) ratio | aim ≥ 0.9 | (b) server alone req/s | nginx files req/s | (b) ratio | server p99 ms | nginx p99 ms |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.label} | ${fmt(r.bytes)} B ${r.encoding} | ${fmt(r.front.reqPerSec)} | ${fmt(r.files.reqPerSec)} | ` +
        `${fmt(r.frontRatio, 2)} | ${met(r.frontRatio >= AIMS.front)} | ${fmt(r.server.reqPerSec)} | ` +
        `${fmt(r.nginx.reqPerSec)} | ${fmt(r.ratio, 2)} | ${fmt(r.server.latencyP99Ms, 2)} | ${fmt(r.nginx.latencyP99Ms, 2)} |`,
    );
  }
  return lines.join('\n');
}

/** Where the cores went in each run: it shows which side was the bottleneck and whether the machine was quiet. */
function cpuTable(rows) {
  const c = (x) => (x >= 0.005 ? x.toFixed(2) : '–');
  const lines = [
    '| target | side | response bytes | server cores | nginx cores | wrk cores | other processes |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    for (const side of SIDES) {
      const u = r[side].cpuCores ?? {};
      lines.push(
        `| ${r.label} | ${side} | ${fmt(r.responseBytes[side])} | ${c(u.server)} | ${c((u.nginx ?? 0) + (u.front ?? 0))} | ${c(u.wrk)} | ${c(u.other)} |`,
      );
    }
  }
  return lines.join('\n');
}

function noisyRuns(rows) {
  return rows.flatMap((r) =>
    SIDES.filter((side) => (r[side].cpuCores?.other ?? 0) > NOISE_CORES).map(
      (side) => `${r.target}/${side} (${r[side].cpuCores.other.toFixed(2)} cores)`,
    ),
  );
}

// ------------------------------------------------------------------------------------------------ main

async function main() {
  const startedAt = new Date();
  const stamp = fileStamp(startedAt);
  const unknown = settings.targets.filter((n) => !TARGET_NAMES.includes(n));
  if (unknown.length > 0)
    throw new Error(`BENCH_TARGETS: unknown ${unknown.join(', ')} (${TARGET_NAMES.join(', ')})`);
  const wrk = { bin: findWrk() };
  findNginx(); // before the slow start of the server
  const workDir = tempDir('yueman-bench-');
  const profileDir = settings.cpuProf ? path.join(resultsDir, `foundation-${stamp}-cpuprofile`) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  console.log(
    `yueman foundation bench: wrk -t${settings.threads} -c${settings.connections}, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s per run, ${os.cpus().length} CPUs`,
  );
  // As `npm start` runs it: node --enable-source-maps apps/server/dist/main.js, the demo library, LOG_LEVEL info
  // (its default: one JSON line per request), stdout and stderr into a file.
  const env = { DEMO_LIBRARY: 'true', LOG_LEVEL: settings.logging ? 'info' : 'warn' };
  if (settings.webConcurrency) env.WEB_CONCURRENCY = settings.webConcurrency;
  const serverEnv = settings.databaseUrl ? { ...env, DATABASE_URL: settings.databaseUrl } : env;
  const server = await startServer({
    workDir,
    env: serverEnv,
    profileDir,
    timeoutMs: settings.startTimeoutMs,
    main: settings.serverMain,
    defaultConcurrency: true,
  });
  const started = {
    command: `node ${server.args.join(' ')}`,
    env: { ...env, WEB_CONCURRENCY: settings.webConcurrency ?? '(unset: the server default)' },
    database: settings.databaseUrl
      ? 'PostgreSQL (BENCH_DATABASE_URL)'
      : 'PGlite (embedded, DATABASE_URL unset)',
    log: 'stdout and stderr written to a file by the server process itself',
    processes: 1 + descendantPids(server.pid).length,
  };
  console.log(
    `server: ${started.command} (${started.processes} processes), LOG_LEVEL=${env.LOG_LEVEL}, log into ${server.logFile}`,
  );
  let targets = await discoverTargets(server.port);
  if (settings.targets.length > 0) targets = targets.filter((t) => settings.targets.includes(t.name));
  // Discovery read a chapter (its read count went up): each process's kept static answers (5 s) catch up with the
  // database before the bytes are captured, so every server process answers the same bytes.
  await sleep(6000);
  console.log('targets:');
  await captureBodies(server.port, targets);
  // nginx serves each body with the server's headers, over plain HTTP and over TLS; the shipped site stands in
  // front of the server. Every side is checked to answer 200 with the same bytes first, the site from its cache.
  const cert = await certificate(path.join(workDir, 'tls'));
  const nginx = await startNginx(workDir, targets, { tls: cert });
  const front = await startFront(workDir, server.port, cert, async (port) =>
    (await rawResponse(port, '/healthz', {}, cert.pem)).head.startsWith('HTTP/1.1 200 '),
  );
  const ports = { server: server.port, nginx: nginx.port, front: front.port, files: nginx.tlsPort };
  for (const t of targets) {
    t.script = path.join(workDir, `${t.name}.lua`);
    writeFileSync(t.script, wrkScript(t.requestHeaders));
    const answers = {};
    for (const side of SIDES) {
      const ask = () =>
        rawResponse(ports[side], t.path, t.requestHeaders, TLS_SIDES.has(side) ? cert.pem : undefined);
      let answer = await ask();
      // The shipped site's first answers come from the server (MISS); measured warm: once its cache answers.
      for (let i = 0; side === 'front' && !/\r\nx-cache-status: HIT/i.test(answer.head) && i < 20; i++) {
        await sleep(100);
        answer = await ask();
      }
      if (side === 'front' && !/\r\nx-cache-status: HIT/i.test(answer.head))
        throw new Error(`the shipped nginx site does not answer ${t.path} from its cache:\n${answer.head}`);
      if (!answer.head.startsWith('HTTP/1.1 200 ') || !answer.body.equals(t.body)) {
        throw new Error(`${side} does not answer ${t.path} with 200 and the captured ${t.bytes} B`);
      }
      answers[side] = answer;
    }
    t.responseBytes = Object.fromEntries(SIDES.map((side) => [side, answers[side].bytes]));
    t.heads = Object.fromEntries(SIDES.map((side) => [side, answers[side].head]));
  }
  const logBefore = statSync(server.logFile).size;

  const rows = [];
  for (const target of targets) {
    const pids = { server: server.child.pid, nginx: nginx.child.pid, front: front.child.pid };
    const run = {};
    for (const side of SIDES) run[side] = await measure(side, ports[side], target, pids, wrk);
    // The server's answer must still be what nginx serves: a kept static answer is made again every few seconds
    // (and the first answer of a refresh may come identity-encoded: the second is the kept one), and may differ by a
    // byte or two (home's sections are time-dependent); wrk's byte counts checked every answer's size meanwhile.
    await get(server.port, target.path, target.requestHeaders);
    const again = await get(server.port, target.path, target.requestHeaders);
    const encoding = again.headers['content-encoding'] ?? 'identity';
    if (
      again.status !== 200 ||
      encoding !== target.encoding ||
      Math.abs(again.body.length - target.bytes) > target.bytes * 0.01
    ) {
      throw new Error(
        `the server's answer to ${target.path} changed (${again.body.length} B ${encoding}, status ${again.status})`,
      );
    }
    rows.push({
      target: target.name,
      label: target.label,
      path: target.path,
      bytes: target.bytes,
      encoding: target.encoding,
      contentType: target.contentType,
      responseBytes: target.responseBytes,
      heads: target.heads,
      frontRatio: run.front.reqPerSec / run.files.reqPerSec,
      ratio: run.server.reqPerSec / run.nginx.reqPerSec,
      p99Ratio: run.server.latencyP99Ms / run.nginx.latencyP99Ms,
      ...run,
    });
  }
  const logBytes = statSync(server.logFile).size - logBefore;
  const served = rows.reduce((n, r) => n + r.server.requests, 0);
  started.logWritten = `${fmt(logBytes)} B of log during the runs (${fmt(logBytes / Math.max(1, served), 1)} B per measured request, warm-ups included)`;

  await server.stop();
  const markdown = table(rows);
  const noisy = noisyRuns(rows);
  const noiseNote =
    noisy.length > 0
      ? `Warning: other processes used more than ${NOISE_CORES} cores during ${noisy.join(', ')}: those figures are noisy; run again on a quiet machine.`
      : `Other processes used at most ${NOISE_CORES} cores during every run.`;
  const how = `Server: \`${started.command}\`, ${started.processes} processes, ${started.database}, LOG_LEVEL=${env.LOG_LEVEL}, WEB_CONCURRENCY ${started.env.WEB_CONCURRENCY}; ${started.log}; ${started.logWritten}.`;
  console.log(`\n${markdown}\n\n${cpuTable(rows)}\n\n${how}\n${noiseNote}\n`);

  const report = {
    benchmark: 'foundation',
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    settings: { ...settings, requestHeaders: REQUEST_HEADERS },
    server: started,
    machine: { ...machine(), nginx: nginx.version },
    aims: AIMS,
    results: rows,
  };
  const md = [
    `# Foundation benchmark, ${startedAt.toISOString()}`,
    '',
    `wrk -t${settings.threads} -c${settings.connections}, ${settings.warmupSeconds} s warm-up then ${settings.seconds} s per run; ` +
      `${report.machine.cpus} CPUs (${report.machine.cpuModel}), Node ${process.version}, ${nginx.version}. ` +
      'wrk, nginx and the server share these CPUs. (a) ratio = the shipped nginx site in front of the server, its ' +
      'cache warm, ÷ nginx serving the same bytes from files, both over TLS (aim ≥ 0.9); (b) ratio = the server ' +
      'alone ÷ nginx serving the files, both plain HTTP (no aim).',
    '',
    how,
    '',
    markdown,
    '',
    "CPU cores used during each measured run (of the machine's total), and the bytes of one answer (head and body):",
    '',
    cpuTable(rows),
    '',
    noiseNote,
    '',
    '| target | path |',
    '|---|---|',
    ...rows.map((r) => `| ${r.label} | \`${r.path}\` |`),
    '',
  ];

  if (profileDir) {
    const summary = summariseProfiles(profileDir, profileWindows);
    if (summary) {
      console.log(summary);
      md.push('## Server CPU profile', '', summary, '');
    }
  }
  writeResults(`foundation-${stamp}`, report, md.join('\n'));
}

runMain(main, 'nginx and the server');
