// `npm run bench`: the foundation benchmark. Starts the server on a throwaway data directory, discovers four
// URLs (home, a list page, a book detail, a cached page image), copies their exact bytes into an nginx root
// and measures both with autocannon, so every figure comes with the figure of a static file server serving
// the same bytes on the same machine. See bench/README.md.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { childPids, envNumber, freePort, sleep, tail } from './bench-kit.mjs';
import { summariseProfiles } from './profile-summary.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(benchDir);
const resultsDir = path.join(benchDir, 'results');

// ---------------------------------------------------------------------------------------------- settings

const settings = {
  seconds: envNumber('BENCH_SECONDS', 10, 1),
  warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 2, 0),
  connections: envNumber('BENCH_CONNECTIONS', 50, 1),
  pipelining: 1,
  startTimeoutMs: envNumber('BENCH_START_TIMEOUT', 180, 10) * 1000,
  targets: (process.env.BENCH_TARGETS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean),
  quietWaitMs: envNumber('BENCH_QUIET_WAIT', 120, 0) * 1000,
  retries: envNumber('BENCH_RETRIES', 2, 0),
  cpuProf: ['1', 'true', 'yes'].includes((process.env.BENCH_CPU_PROF ?? '').toLowerCase()),
};

// The aims of the foundation milestone: targets to report against, not gates (a miss does not fail the run).
const AIMS = { static: 0.6, image: 0.6 };

// Cores that other processes may use during a run before it counts as disturbed (the machine may be shared).
const NOISE_CORES = 0.25;

// autocannon sends `GET <path> HTTP/1.1`, `Host`, `Connection: keep-alive` and these. No Accept-Encoding, so the
// server answers identity bytes exactly as nginx does; the bodies for nginx are fetched with the same headers.
const REQUEST_HEADERS = { 'user-agent': 'yueman-bench' };

// autocannon 9 appends every body chunk to a string (`req.body += buffer`). For a 90 KB WebP that UTF-8 decoding is
// ~80% of autocannon's CPU and caps both the server and nginx at ~700 req/s, so the image ratio would measure
// autocannon alone. Nothing here uses the body text (no expectBody), so only its length is kept, and each
// response's length is checked against the expected bytes in onResponse.
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = function addBodyLength(data) {
  const req = this.peek();
  if (req) req.body = (req.body || 0) + data.length;
};

// ------------------------------------------------------------------------------------ cleanup machinery

const cleanups = [];
let cleaningUp = null;
function onCleanup(fn) {
  cleanups.push(fn);
}
function cleanup() {
  cleaningUp ??= (async () => {
    while (cleanups.length > 0) {
      const fn = cleanups.pop();
      try {
        await fn();
      } catch (err) {
        console.error(`cleanup: ${err?.message ?? err}`);
      }
    }
  })();
  return cleaningUp;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping nginx and the server`);
    cleanup().finally(() => process.exit(130));
  });
}

function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// -------------------------------------------------------------------------------------------- helpers

/** One GET with node:http (no Accept-Encoding is added, unlike fetch): status, headers and the raw body. */
function get(port, urlPath, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: urlPath, method: 'GET', headers: REQUEST_HEADERS, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${urlPath} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

async function getJson(port, urlPath) {
  const res = await get(port, urlPath);
  if (res.status !== 200)
    throw new Error(`GET ${urlPath}: HTTP ${res.status}: ${res.body.toString().slice(0, 300)}`);
  const json = JSON.parse(res.body.toString('utf8'));
  if (json.code !== 200) throw new Error(`GET ${urlPath}: code ${json.code} ${json.msg}`);
  return json.data;
}

/** Sends `signal`, waits up to `ms` for the exit, then SIGKILL. */
async function stopChild(child, signal, ms = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = sleep(ms).then(() => 'timeout');
  if ((await Promise.race([exited, timer])) === 'timeout') {
    console.error(`pid ${child.pid} did not stop after ${signal} in ${ms} ms: SIGKILL`);
    child.kill('SIGKILL');
    await exited;
  }
}

/** Polls until `check` resolves true; fails early when the child exits. */
async function waitUntil(what, child, logFile, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${what} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(logFile)}`,
      );
    }
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`${what} was not ready after ${timeoutMs / 1000} s:\n${tail(logFile)}`);
}

// ---------------------------------------------------------------------------------------------- server

async function startServer(workDir, profileDir) {
  const port = await freePort();
  const dataDir = path.join(workDir, 'data');
  const logFile = path.join(workDir, 'server.log');
  const log = createWriteStream(logFile);
  // node --import tsx is what node_modules/.bin/tsx runs, minus the wrapper process: one pid to stop, and node
  // flags such as --cpu-prof apply to the server itself.
  const nodeArgs = ['--import', 'tsx'];
  if (profileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_LIBRARY: 'true',
      NODE_ENV: process.env.NODE_ENV ?? 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  onCleanup(async () => {
    await stopChild(child, 'SIGTERM', 20_000);
    log.end();
  });

  // LOG_LEVEL=warn hides the "is ready on" line, so readiness is /healthz answering 200.
  const started = Date.now();
  await waitUntil('the server', child, logFile, settings.startTimeoutMs, async () => {
    const res = await get(port, '/healthz', 2000);
    return res.status === 200;
  });
  console.log(
    `server ready on 127.0.0.1:${port} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid})`,
  );
  return { port, child, logFile, stop: () => stopChild(child, 'SIGTERM', 20_000) };
}

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
    const res = await get(port, `/api/book/read_chapter?bookId=${book.bookId}&number=1`);
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

/** The exact bytes and headers the benchmark will get from the server (the image request also warms its cache). */
async function captureBodies(port, targets) {
  for (const target of targets) {
    let res = await get(port, target.path, 120_000);
    if (target.kind === 'image') res = await get(port, target.path); // the second one is served from the cache
    if (res.status !== 200) throw new Error(`GET ${target.path}: HTTP ${res.status}`);
    if (res.headers['content-encoding']) {
      throw new Error(
        `GET ${target.path} came back ${res.headers['content-encoding']}-encoded without Accept-Encoding`,
      );
    }
    target.body = res.body;
    target.bytes = res.body.length;
    target.sha1 = createHash('sha1').update(res.body).digest('hex');
    target.contentType = res.headers['content-type'] ?? 'application/octet-stream';
    target.cacheControl = res.headers['cache-control'] ?? null;
    target.vary = res.headers.vary ?? null;
    console.log(`  ${target.name.padEnd(6)} ${target.path}  ${target.bytes} B  ${target.contentType}`);
  }
}

// ----------------------------------------------------------------------------------------------- nginx

function findNginx() {
  if (process.env.NGINX) {
    if (existsSync(process.env.NGINX)) return process.env.NGINX;
    throw new Error(`NGINX=${process.env.NGINX} does not exist`);
  }
  const candidates = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];
  for (const c of candidates) if (existsSync(c)) return c;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error('nginx not found: apt-get install -y nginx (or set NGINX=/path/to/nginx)');
}

const quote = (s) => `"${String(s).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

function nginxConfig({ dir, port, targets }) {
  const locations = targets
    .map((t) => {
      const headers = [
        t.cacheControl ? `      add_header Cache-Control ${quote(t.cacheControl)} always;` : null,
        t.vary ? `      add_header Vary ${quote(t.vary)} always;` : null,
      ].filter(Boolean);
      return [
        `    location = ${quote(t.rawPath)} {`,
        `      alias ${quote(path.join(dir, 'www', `${t.name}.body`))};`,
        `      default_type ${quote(t.contentType)};`,
        ...headers,
        '    }',
      ].join('\n');
    })
    .join('\n');
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `# generated by bench/run.mjs
${user}daemon off;
worker_processes auto;
pid ${quote(path.join(dir, 'nginx.pid'))};
error_log ${quote(path.join(dir, 'error.log'))} warn;
events {
  worker_connections 4096;
}
http {
  access_log off;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65s;
  keepalive_requests 100000;
  open_file_cache max=64 inactive=60s;
  types {}
  client_body_temp_path ${quote(path.join(dir, 'client_body'))};
  proxy_temp_path ${quote(path.join(dir, 'proxy'))};
  fastcgi_temp_path ${quote(path.join(dir, 'fastcgi'))};
  uwsgi_temp_path ${quote(path.join(dir, 'uwsgi'))};
  scgi_temp_path ${quote(path.join(dir, 'scgi'))};
  server {
    listen 127.0.0.1:${port};
${locations}
    location / {
      return 404;
    }
  }
}
`;
}

async function startNginx(workDir, targets) {
  const bin = findNginx();
  const dir = path.join(workDir, 'nginx');
  mkdirSync(path.join(dir, 'www'), { recursive: true });
  for (const t of targets) writeFileSync(path.join(dir, 'www', `${t.name}.body`), t.body);
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig({ dir, port, targets }));
  const logFile = path.join(dir, 'error.log');
  const test = spawnSync(bin, ['-t', '-q', '-p', dir, '-c', conf, '-e', logFile], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}${test.stdout}\n${conf}`);
  const child = spawn(bin, ['-p', dir, '-c', conf, '-e', logFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (d) => process.stderr.write(`nginx: ${d}`));
  // SIGTERM is nginx's fast shutdown; the master stops its workers before it exits.
  onCleanup(() => stopChild(child, 'SIGTERM', 10_000));
  await waitUntil(
    'nginx',
    child,
    logFile,
    15_000,
    async () => (await get(port, targets[0].path, 2000)).status === 200,
  );
  const version = spawnSync(bin, ['-v'], { encoding: 'utf8' }).stderr.trim();
  console.log(`nginx ready on 127.0.0.1:${port} (pid ${child.pid}, ${version})`);

  for (const t of targets) {
    const res = await get(port, t.path);
    if (res.status !== 200) throw new Error(`nginx GET ${t.path}: HTTP ${res.status}`);
    if (res.body.length !== t.bytes) {
      throw new Error(`nginx serves ${res.body.length} B for ${t.path}, the server ${t.bytes} B`);
    }
  }
  return { port, child, version, conf };
}

// ---------------------------------------------------------------------------------------- CPU accounting

// Where the 2 cores went during a run (Linux /proc; null elsewhere): the server, nginx (master and workers),
// this process (autocannon) and everything else on the machine, which is noise for the figures.
const CLOCK_TICKS = 100;

function readTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}

function cpuSnapshot(pids) {
  if (!existsSync('/proc/stat')) return null;
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = cpu[3] + cpu[4];
  // Per worker, since a worker could be replaced between two snapshots.
  const nginx = new Map([[pids.nginx, readTicks(pids.nginx)]]);
  for (const w of childPids(pids.nginx)) nginx.set(w, readTicks(w));
  return { busy: total - idle, server: readTicks(pids.server), nginx, self: readTicks(process.pid) };
}

function cpuCores(a, b, seconds) {
  if (!a || !b) return null;
  const cores = (ticks) => ticks / CLOCK_TICKS / seconds;
  let nginx = 0;
  for (const [pid, t] of b.nginx) nginx += t - (a.nginx.get(pid) ?? 0);
  const server = b.server - a.server;
  const self = b.self - a.self;
  const busy = b.busy - a.busy;
  return {
    server: cores(server),
    nginx: cores(nginx),
    autocannon: cores(self),
    other: Math.max(0, cores(busy - server - nginx - self)),
  };
}

// ------------------------------------------------------------------------------------------ autocannon

/** One autocannon run; `check.wrongLength` counts 2xx answers whose body is not the expected number of bytes. */
async function cannon(port, target, seconds) {
  const check = { wrongLength: 0, lastWrong: null };
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: settings.connections,
    pipelining: settings.pipelining,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        path: target.path,
        headers: REQUEST_HEADERS,
        onResponse(status, bodyLength) {
          if (status >= 200 && status < 300 && (bodyLength || 0) !== target.bytes) {
            check.wrongLength++;
            check.lastWrong = bodyLength || 0;
          }
        },
      },
    ],
  });
  return { result, check };
}

function summarise({ result, check }) {
  return {
    wrongLength: check.wrongLength,
    lastWrongLength: check.lastWrong,
    reqPerSec: result.requests.average,
    reqPerSecStddev: result.requests.stddev,
    latencyAvgMs: result.latency.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    throughputBytesPerSec: result.throughput.average,
    requests: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets ?? 0,
    mismatches: result.mismatches ?? 0,
    durationS: result.duration,
  };
}

/** When the measured server runs happened (µs, monotonic clock), to cut the CPU profile to them. */
const profileWindows = [];

/** Cores busy on the machine over `ms` (between runs that is other people's work: ours is idle). */
async function busyCores(ms = 1000) {
  if (!existsSync('/proc/stat')) return 0;
  const busy = () => {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return cpu.slice(0, 8).reduce((a, b) => a + b, 0) - cpu[3] - cpu[4];
  };
  const a = busy();
  await sleep(ms);
  return (busy() - a) / CLOCK_TICKS / (ms / 1000);
}

/** On a shared machine, waits (up to BENCH_QUIET_WAIT s) until other processes leave the cores alone. */
async function waitForQuiet() {
  const deadline = Date.now() + settings.quietWaitMs;
  // Other work comes in bursts (test suites, builds): 3 quiet seconds in a row before a run starts.
  let cores = await busyCores(3000);
  if (cores <= NOISE_CORES) return;
  process.stdout.write(`  waiting for a quiet machine (${cores.toFixed(2)} cores busy elsewhere)`);
  while (cores > NOISE_CORES && Date.now() < deadline) {
    process.stdout.write('.');
    cores = await busyCores(3000);
  }
  console.log(cores > NOISE_CORES ? ` still ${cores.toFixed(2)} cores busy: measuring anyway` : ' quiet');
}

/** Measures; a run disturbed by other processes is measured again (BENCH_RETRIES), keeping the quietest. */
async function measure(side, port, target, pids) {
  let best = null;
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    await waitForQuiet();
    const run = await measureOnce(side, port, target, pids);
    const other = run.cpuCores?.other ?? 0;
    if (!best || other < (best.cpuCores?.other ?? 0)) best = run;
    if (other <= NOISE_CORES) break;
    if (attempt < settings.retries)
      console.log(`  ${other.toFixed(2)} cores used elsewhere during the run: again`);
  }
  if (side === 'server') profileWindows.push(best.window);
  return best;
}

async function measureOnce(side, port, target, pids) {
  if (settings.warmupSeconds > 0) {
    const warm = summarise(await cannon(port, target, settings.warmupSeconds));
    if (warm.errors || warm.timeouts || warm.non2xx || warm.wrongLength) {
      throw new Error(
        `${side} ${target.name} warm-up: ${warm.errors} errors, ${warm.timeouts} timeouts, ${warm.non2xx} non-2xx, ` +
          `${warm.wrongLength} bodies not ${target.bytes} B (last ${warm.lastWrongLength} B)`,
      );
    }
  }
  const cpuBefore = cpuSnapshot(pids);
  const start = Number(process.hrtime.bigint() / 1000n);
  const run = summarise(await cannon(port, target, settings.seconds));
  const end = Number(process.hrtime.bigint() / 1000n);
  run.cpuCores = cpuCores(cpuBefore, cpuSnapshot(pids), (end - start) / 1e6);
  run.window = { name: target.label, start, end, requests: run.requests };
  const line = `  ${side.padEnd(6)} ${target.name.padEnd(6)} ${run.reqPerSec.toFixed(0).padStart(7)} req/s  p99 ${String(run.latencyP99Ms).padStart(4)} ms`;
  const c = run.cpuCores;
  console.log(
    c
      ? `${line}  CPU cores: server ${c.server.toFixed(2)} nginx ${c.nginx.toFixed(2)} autocannon ${c.autocannon.toFixed(2)} other ${c.other.toFixed(2)}`
      : line,
  );
  if (run.errors || run.timeouts || run.non2xx || run.wrongLength || run.ok2xx === 0) {
    throw new Error(
      `${side} ${target.name}: ${run.errors} errors, ${run.timeouts} timeouts, ${run.non2xx} non-2xx, ` +
        `${run.wrongLength} bodies not ${target.bytes} B (last ${run.lastWrongLength} B), ${run.ok2xx} 2xx`,
    );
  }
  return run;
}

// ---------------------------------------------------------------------------------------------- report

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(rows) {
  const lines = [
    '| target | bytes | server req/s | nginx req/s | ratio (server/nginx) | aim | server p99 ms | nginx p99 ms |',
    '|---|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const r of rows) {
    const aim = `≥ ${r.aim} ${r.ratio >= r.aim ? 'met' : 'below'}`;
    lines.push(
      `| ${r.label} | ${r.bytes} | ${fmt(r.server.reqPerSec)} | ${fmt(r.nginx.reqPerSec)} | ${fmt(r.ratio, 2)} | ${aim} | ${r.server.latencyP99Ms} | ${r.nginx.latencyP99Ms} |`,
    );
  }
  return lines.join('\n');
}

/** Where the cores went in each run: it shows which side was the bottleneck and whether the machine was quiet. */
function cpuTable(rows) {
  const c = (x) => (x >= 0.005 ? x.toFixed(2) : '–');
  const lines = [
    '| target | side | server cores | nginx cores | autocannon cores | other processes |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    for (const side of ['server', 'nginx']) {
      const u = r[side].cpuCores ?? {};
      lines.push(
        `| ${r.label} | ${side} | ${c(u.server)} | ${c(u.nginx)} | ${c(u.autocannon)} | ${c(u.other)} |`,
      );
    }
  }
  return lines.join('\n');
}

function noisyRuns(rows) {
  return rows.flatMap((r) =>
    ['server', 'nginx']
      .filter((side) => (r[side].cpuCores?.other ?? 0) > NOISE_CORES)
      .map((side) => `${r.target}/${side} (${r[side].cpuCores.other.toFixed(2)} cores)`),
  );
}

// ------------------------------------------------------------------------------------------------ main

async function main() {
  const startedAt = new Date();
  const stamp = startedAt
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z');
  const unknown = settings.targets.filter((n) => !TARGET_NAMES.includes(n));
  if (unknown.length > 0)
    throw new Error(`BENCH_TARGETS: unknown ${unknown.join(', ')} (${TARGET_NAMES.join(', ')})`);
  const workDir = tempDir('yueman-bench-');
  const profileDir = settings.cpuProf ? path.join(resultsDir, `foundation-${stamp}-cpuprofile`) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  console.log(
    `yueman foundation bench: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s per run, ${os.cpus().length} CPUs`,
  );
  findNginx(); // before the slow start of the server
  const server = await startServer(workDir, profileDir);
  let targets = await discoverTargets(server.port);
  if (settings.targets.length > 0) targets = targets.filter((t) => settings.targets.includes(t.name));
  console.log('targets:');
  await captureBodies(server.port, targets);
  const nginx = await startNginx(workDir, targets);

  const rows = [];
  for (const target of targets) {
    const pids = { server: server.child.pid, nginx: nginx.child.pid };
    const serverRun = await measure('server', server.port, target, pids);
    const nginxRun = await measure('nginx', nginx.port, target, pids);
    // The server's answer must still be the bytes nginx serves (the static cache may have been refreshed).
    const again = await get(server.port, target.path);
    if (again.status !== 200 || again.body.length !== target.bytes) {
      throw new Error(
        `server body of ${target.path} is now ${again.body.length} B (status ${again.status}), nginx serves ${target.bytes} B`,
      );
    }
    rows.push({
      target: target.name,
      label: target.label,
      path: target.path,
      bytes: target.bytes,
      contentType: target.contentType,
      cacheControl: target.cacheControl,
      aim: AIMS[target.kind],
      ratio: serverRun.reqPerSec / nginxRun.reqPerSec,
      server: serverRun,
      nginx: nginxRun,
    });
  }

  await server.stop();
  const markdown = table(rows);
  const noisy = noisyRuns(rows);
  const noiseNote =
    noisy.length > 0
      ? `Warning: other processes used more than ${NOISE_CORES} cores during ${noisy.join(', ')}: those figures are noisy; run again on a quiet machine.`
      : `Other processes used at most ${NOISE_CORES} cores during every run.`;
  console.log(`\n${markdown}\n\n${cpuTable(rows)}\n\n${noiseNote}\n`);

  const report = {
    benchmark: 'foundation',
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    settings: { ...settings, requestHeaders: REQUEST_HEADERS },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAvg: os.loadavg(),
      node: process.version,
      nginx: nginx.version,
    },
    aims: AIMS,
    results: rows,
  };
  mkdirSync(resultsDir, { recursive: true });
  const base = path.join(resultsDir, `foundation-${stamp}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  const md = [
    `# Foundation benchmark, ${startedAt.toISOString()}`,
    '',
    `${settings.connections} connections, pipelining 1, ${settings.warmupSeconds} s warm-up then ${settings.seconds} s per run; ` +
      `${report.machine.cpus} CPUs (${report.machine.cpuModel}), Node ${process.version}, ${nginx.version}. ` +
      'autocannon, nginx and the server share these CPUs. Ratio = server req/s ÷ nginx req/s for the same bytes.',
    '',
    markdown,
    '',
    "CPU cores used during each measured run (of the machine's total; autocannon runs in the bench process):",
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
  writeFileSync(`${base}.md`, md.join('\n'));
  console.log(`results: ${path.relative(root, base)}.json and .md`);
}

main()
  .then(async () => {
    await cleanup();
    process.exit(0);
  })
  .catch(async (err) => {
    console.error(`\nbench failed: ${err?.stack ?? err}`);
    await cleanup();
    process.exit(1);
  });
