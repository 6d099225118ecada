// `npm run bench`: the foundation benchmark. Starts the server on a throwaway data directory, discovers four
// URLs (home, a list page, a book detail, a cached page image), copies their exact bytes into an nginx root
// and measures both with autocannon, so every figure comes with the figure of a static file server serving
// the same bytes on the same machine. See bench/README.md.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
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
  startServer,
  tempDir,
  writeResults,
} from './bench-kit.mjs';
import { childPids, cpuCores, cpuSnapshot, NOISE_CORES, ticksOf, waitForQuiet } from './cpu.mjs';
import { findNginx, startNginx } from './nginx.mjs';
import { summariseProfiles } from './profile-summary.mjs';

// ---------------------------------------------------------------------------------------------- settings

const settings = {
  ...loadSettings(),
  connections: envNumber('BENCH_CONNECTIONS', 50, 1),
  pipelining: 1,
  targets: envList('BENCH_TARGETS'),
  retries: envNumber('BENCH_RETRIES', 2, 0),
};

// The aims of the foundation milestone: targets to report against, not gates (a miss does not fail the run).
const AIMS = { static: 0.6, image: 0.6 };

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

// -------------------------------------------------------------------------------------------- helpers

/** One GET with the headers autocannon sends. */
const get = (port, urlPath, timeoutMs) => getWith(port, urlPath, { headers: REQUEST_HEADERS, timeoutMs });

async function getJson(port, urlPath) {
  const res = await get(port, urlPath);
  if (res.status !== 200)
    throw new Error(`GET ${urlPath}: HTTP ${res.status}: ${res.body.toString().slice(0, 300)}`);
  const json = JSON.parse(res.body.toString('utf8'));
  if (json.code !== 200) throw new Error(`GET ${urlPath}: code ${json.code} ${json.msg}`);
  return json.data;
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

// ---------------------------------------------------------------------------------------- CPU accounting

// The sides of a run: the server, nginx (master and workers, counted per pid: a worker may be replaced between
// two snapshots) and this process, which runs autocannon.
const cpuSides = (pids) => ({
  server: () => ticksOf(pids.server),
  nginx: () => new Map([pids.nginx, ...childPids(pids.nginx)].map((pid) => [pid, ticksOf(pid)])),
  autocannon: () => ticksOf(process.pid),
});

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

/** Measures; a run disturbed by other processes is measured again (BENCH_RETRIES), keeping the quietest. */
async function measure(side, port, target, pids) {
  let best = null;
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    await waitForQuiet(settings.quietWaitMs);
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
  const cpuBefore = cpuSnapshot(cpuSides(pids));
  const start = Number(process.hrtime.bigint() / 1000n);
  const run = summarise(await cannon(port, target, settings.seconds));
  const end = Number(process.hrtime.bigint() / 1000n);
  run.cpuCores = cpuCores(cpuBefore, cpuSnapshot(cpuSides(pids)));
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
  const stamp = fileStamp(startedAt);
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
  const server = await startServer({
    workDir,
    env: { DEMO_LIBRARY: 'true' },
    profileDir,
    timeoutMs: settings.startTimeoutMs,
  });
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
    machine: { ...machine(), nginx: nginx.version },
    aims: AIMS,
    results: rows,
  };
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
  writeResults(`foundation-${stamp}`, report, md.join('\n'));
}

runMain(main, 'nginx and the server');
