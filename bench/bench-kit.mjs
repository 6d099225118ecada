// What every benchmark needs around its measurements, in one place: settings from the environment, a cleanup
// that runs on success, failure and Ctrl-C, throwaway directories, child processes started and stopped, the
// server on a fresh data directory, and the results files. CPU accounting is in cpu.mjs, nginx in nginx.mjs.
import { spawn } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { withServerMemoryEnv } from '../scripts/memory-env.mjs';

export const root = path.resolve(import.meta.dirname, '..');
/** Where the reports go: bench/results, or BENCH_RESULTS_DIR (the smoke run's throwaway folder). */
export const resultsDir = process.env.BENCH_RESULTS_DIR
  ? path.resolve(process.env.BENCH_RESULTS_DIR)
  : path.join(root, 'bench', 'results');

/**
 * BENCH_SMOKE=1 (`npm run bench:smoke`, part of `npm test`): the bench runs once on tiny data for a second or so, to
 * prove it still runs end to end. Every check that the bench works stays (answers, bytes, ledger); the figures mean
 * nothing, so the settings' smoke defaults apply, nothing waits for a quiet machine, and a missed aim is reported
 * without failing the run.
 */
export const smoke = ['1', 'true', 'yes'].includes((process.env.BENCH_SMOKE ?? '').toLowerCase());

// --------------------------------------------------------------------------------------------- settings

/**
 * A numeric setting from the environment, or its default (`smokeFallback` in a smoke run, when given); a bad value
 * stops the bench with its name.
 */
export function envNumber(name, fallback, min, smokeFallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return smoke && smokeFallback !== undefined ? smokeFallback : fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min)
    throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

/** A comma-separated list from the environment (BENCH_TARGETS), or the default list. */
export const envList = (name, fallback = '') =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** The settings of the autocannon benches (run.mjs, purchase.mjs) that mean the same in both (bench/README.md). */
export function loadSettings() {
  return {
    seconds: envNumber('BENCH_SECONDS', 10, 1, 1),
    warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 2, 0, 0),
    quietWaitMs: envNumber('BENCH_QUIET_WAIT', 120, 0, 0) * 1000,
    startTimeoutMs: envNumber('BENCH_START_TIMEOUT', 180, 10) * 1000,
    cpuProf: ['1', 'true', 'yes'].includes((process.env.BENCH_CPU_PROF ?? '').toLowerCase()),
  };
}

// ------------------------------------------------------------------------------------ cleanup machinery

// Whatever a bench starts or creates registers its undoing here; it runs last-in first-out, once.
const cleanups = [];
let cleaningUp = null;

export function onCleanup(fn) {
  cleanups.push(fn);
}

export function cleanup() {
  cleaningUp ??= (async () => {
    while (cleanups.length > 0) {
      try {
        await cleanups.pop()();
      } catch (err) {
        console.error(`cleanup: ${err?.message ?? err}`);
      }
    }
  })();
  return cleaningUp;
}

/**
 * Runs a bench's main function and exits with its outcome, after the cleanup: process.exitCode (0 unless main
 * set it, as for a missed aim), 1 on an error, 130 on Ctrl-C (`stopping` names what the cleanup stops).
 */
export function runMain(main, stopping) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping ${stopping}`);
      cleanup().finally(() => process.exit(130));
    });
  }
  main()
    .then(async () => {
      await cleanup();
      process.exit(process.exitCode ?? 0);
    })
    .catch(async (err) => {
      console.error(`\nbench failed: ${err?.stack ?? err}`);
      await cleanup();
      process.exit(1);
    });
}

/**
 * A PostgreSQL test cluster of the machine's newest PostgreSQL (apps/server/test/pg-cluster.ts, stopped when the bench
 * ends) with a new database `name`: its URL, and what `SHOW` answers for `server_version` and each of `shown`.
 */
export async function startBenchPostgres(name, shown = []) {
  const { default: setup } = await tsImport('../apps/server/test/pg-cluster.ts', import.meta.url);
  let adminUrl = '';
  const teardown = await setup({
    provide: (key, value) => {
      if (key === 'pgUrl') adminUrl = value;
    },
  });
  onCleanup(() => teardown?.());
  if (!adminUrl) throw new Error('PostgreSQL is not installed here (/usr/lib/postgresql/*/bin)');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const settings = {};
  for (const setting of ['server_version', ...shown]) {
    settings[setting] = (await admin.query(`SHOW ${setting}`)).rows[0][setting];
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url, settings };
}

/** A new directory under the system's temporary directory, removed by the cleanup. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------------------------------------- processes

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const running = (child) => child.exitCode === null && child.signalCode === null;

/** Sends `signal`, waits up to `ms` for the exit, then SIGKILL. */
export async function stopChild(child, signal = 'SIGTERM', ms = 15_000) {
  if (!running(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  if ((await Promise.race([exited, sleep(ms).then(() => 'timeout')])) === 'timeout') {
    console.error(`pid ${child.pid} did not stop after ${signal} in ${ms} ms: SIGKILL`);
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Runs `command` with `args` and resolves with its exit code and its stdout and stderr together (a load generator,
 * pgbench); stopped if the bench ends first.
 */
export function runCollecting(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    onCleanup(() => stopChild(child, 'SIGTERM', 5000));
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** Polls until `check` resolves true; fails early when the child exits, with the end of its log. */
export async function waitUntil(what, child, logFile, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running(child)) {
      throw new Error(
        `${what} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(logFile)}`,
      );
    }
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`${what} was not ready after ${timeoutMs / 1000} s:\n${tail(logFile)}`);
}

/** The last lines of a log file, for an error message. */
export function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** A loopback port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * One GET to 127.0.0.1 with node:http, which adds no Accept-Encoding (fetch would): status, headers and the raw
 * body, so a bench compares identity bytes.
 */
export function get(port, urlPath, { headers = {}, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: urlPath, method: 'GET', headers, agent: false },
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

// ------------------------------------------------------------------------------------------------- server

/**
 * The server as production runs it (apps/server/dist/main.js, built first when a source is newer; or `main`, another
 * build, as it is) on a free port (or `port`), its data and log in `workDir`, stopped by the cleanup. node itself,
 * not `npm start`: one pid to stop and to count the CPU of (its cluster workers are its children), and node flags
 * such as --cpu-prof (a `profileDir`) apply to the server itself. Its stdout and stderr go straight into
 * `workDir/server.log` (the server writes the file; no pipe through this process). One process (WEB_CONCURRENCY=1)
 * unless `defaultConcurrency` (the server's own default, every core) or `env` says otherwise.
 */
export async function startServer({
  workDir,
  env = {},
  profileDir,
  port,
  timeoutMs = 180_000,
  indent = '',
  main,
  defaultConcurrency = false,
}) {
  const built = main ?? path.join(root, 'apps/server/dist/main.js');
  if (!main) {
    const { buildServer, serverSources } = await import('../scripts/build-server.mjs');
    const { stale } = await import('../scripts/stale.mjs');
    if (stale(built, serverSources)) await buildServer();
  }
  port ??= await freePort();
  mkdirSync(workDir, { recursive: true });
  const dataDir = path.join(workDir, 'data');
  const demoCopy = process.env.BENCH_DEMO_DATA_DIR;
  const serverEnv = { ...process.env, ...env };
  // A smoke run (smoke.mjs) made one data directory with the demo library on the embedded database: a server of this
  // build that would create the same starts from a copy, as a second start would, instead of running initdb and
  // seeding the library again for every bench (15 s or more each on 2 cores). The figures of a smoke run mean
  // nothing; a real run always starts fresh.
  if (demoCopy && !main && !serverEnv.DATABASE_URL && (serverEnv.DEMO_LIBRARY ?? 'true') === 'true') {
    if (!existsSync(dataDir)) {
      cpSync(demoCopy, dataDir, { recursive: true });
      console.log(`${indent}data directory: a copy of the smoke run's demo library`);
    }
  }
  const logFile = path.join(workDir, 'server.log');
  const logFd = openSync(logFile, 'a');
  const nodeArgs = ['--enable-source-maps'];
  if (profileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  const args = [...nodeArgs, built];
  const child = spawn(process.execPath, args, {
    cwd: root,
    // As `npm start` starts it (scripts/memory-env.mjs: MALLOC_ARENA_MAX).
    env: withServerMemoryEnv({
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: process.env.NODE_ENV ?? 'production',
      ...(defaultConcurrency ? {} : { WEB_CONCURRENCY: '1' }),
      ...env,
    }),
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const stop = () => stopChild(child, 'SIGTERM', 20_000);
  onCleanup(stop);

  // LOG_LEVEL=warn hides the "is ready on" line, so readiness is /healthz answering 200.
  const started = Date.now();
  await waitUntil(
    'the server',
    child,
    logFile,
    timeoutMs,
    async () => (await get(port, '/healthz', { timeoutMs: 2000 })).status === 200,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${indent}server ready on 127.0.0.1:${port} in ${seconds} s (pid ${child.pid})`);
  return { port, origin: `http://127.0.0.1:${port}`, child, pid: child.pid, logFile, args, stop };
}

// ------------------------------------------------------------------------------------------------ results

/** A run's start as a file-name part: 2026-11-22T10-00-00Z. */
export const fileStamp = (date) =>
  date
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z');

/** A figure with thousands separators and a fixed number of decimals, for the reports' tables. */
export const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** What the figures were measured on, for the report. */
export const machine = () => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  loadAvg: os.loadavg(),
  node: process.version,
});

/**
 * Whether a bench that missed its aims fails (exit code `code`): in a smoke run the miss is only reported, since the
 * figures of a second's run on tiny data mean nothing.
 */
export function failOnMissedAims(missed, code = 1) {
  if (!missed) return;
  if (smoke) console.log('smoke run: aims missed, not a failure (the figures of a smoke run mean nothing)');
  else process.exitCode = code;
}

/** Writes bench/results/<name>.json (the report) and, given one, <name>.md; says where. */
export function writeResults(name, report, markdown) {
  mkdirSync(resultsDir, { recursive: true });
  const base = path.join(resultsDir, name);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  if (markdown !== undefined) writeFileSync(`${base}.md`, markdown);
  console.log(`results: ${path.relative(root, base)}.json${markdown !== undefined ? ' and .md' : ''}`);
}
