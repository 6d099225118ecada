// `npm run bench:smoke` (a step of `npm test`): every benchmark of package.json (`bench` and each `bench:*`) run once
// as an operator runs it, `npm run <script>`, with BENCH_SMOKE=1: a second or so of load on tiny data (bench-kit.mjs
// `smoke`), so a bench that no longer runs fails the tests instead of waiting for the next person who measures. It
// fails when a bench exits non-zero (a bench throws on every broken check: an answer that is not 200, bytes that
// differ from the baseline's, a ledger that does not balance), writes no results, or overruns its time. The figures
// mean nothing and are thrown away with their folder. See bench/README.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SELF = 'bench:smoke';
/** The prefix of the results file each bench writes (writeResults); a bench missing here fails the smoke run. */
const RESULTS = {
  // run.mjs then uncached.mjs (package.json): both must write theirs.
  bench: ['foundation-', 'uncached-'],
  'bench:purchase': 'purchase-',
  'bench:scale': 'scale-',
  'bench:import': 'import-',
  'bench:lighthouse': 'lighthouse-',
  'bench:page-images': 'page-images-',
  'bench:next-chapter': 'next-chapter-',
  'bench:soak': 'soak-',
  'bench:dashboard': 'dashboard-',
};
/** Seconds a bench may take in a smoke run (most take 10–40 s on a quiet 2-core machine, 60–220 s on a loaded one). */
const LIMIT_SECONDS = Number(process.env.BENCH_SMOKE_LIMIT || 300);

const scripts = Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts)
  .filter((name) => (name === 'bench' || name.startsWith('bench:')) && name !== SELF)
  .filter((name) => !process.env.BENCH_SMOKE_ONLY || process.env.BENCH_SMOKE_ONLY.split(',').includes(name));
const unknown = scripts.filter((name) => !(name in RESULTS));
if (unknown.length > 0) {
  console.error(`bench:smoke: no smoke expectations for ${unknown.join(', ')}: add them to bench/smoke.mjs`);
  process.exit(1);
}

const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'yueman-bench-smoke-'));
let current = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The bench's own cleanup stops what it started (its server, nginx, PostgreSQL, Chromium).
    if (current) process.kill(-current.pid, signal);
    setTimeout(() => process.exit(130), 20_000).unref();
  });
}

/**
 * One data directory with the demo library on the embedded database, made by starting the built server once: every
 * bench's server that would make the same starts from a copy (bench-kit.mjs, startServer).
 */
async function demoDataDir() {
  const { startServer } = await import('./bench-kit.mjs');
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'yueman-bench-smoke-demo-'));
  const started = performance.now();
  const server = await startServer({ workDir });
  await server.stop();
  console.log(
    `bench:smoke: a demo data directory made in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return path.join(workDir, 'data');
}

/** `npm run <name>` in a process group of its own (npm does not pass signals on), with its outcome. */
function runScript(name) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('npm', ['run', name], {
      cwd: root,
      env: { ...process.env, BENCH_SMOKE: '1', BENCH_RESULTS_DIR: resultsDir },
      stdio: 'inherit',
      detached: true,
    });
    current = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\nbench:smoke: ${name} still running after ${LIMIT_SECONDS} s: stopping it`);
      process.kill(-child.pid, 'SIGTERM');
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 30_000).unref();
    }, LIMIT_SECONDS * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      current = null;
      resolve({ code, signal, timedOut, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const outcomes = [];
const startedAll = performance.now();
process.env.BENCH_DEMO_DATA_DIR = await demoDataDir();
for (const name of scripts) {
  console.log(`\n==> bench:smoke: npm run ${name}`);
  const run = await runScript(name);
  const written = readdirSync(resultsDir);
  const wrote = [RESULTS[name]].flat().every((prefix) => written.some((f) => f.startsWith(prefix)));
  const problem = run.timedOut
    ? `overran ${LIMIT_SECONDS} s`
    : run.code !== 0
      ? `exited ${run.code ?? run.signal}`
      : !wrote
        ? `wrote no ${RESULTS[name]}* results`
        : null;
  outcomes.push({ name, seconds: run.seconds, problem });
}

rmSync(resultsDir, { recursive: true, force: true });
rmSync(path.dirname(process.env.BENCH_DEMO_DATA_DIR), { recursive: true, force: true });
console.log(`\nbench:smoke, ${((performance.now() - startedAll) / 1000).toFixed(0)} s in all:`);
for (const o of outcomes) {
  console.log(
    `  ${o.problem ? 'FAILED' : 'ok    '} ${o.name.padEnd(20)} ${o.seconds.toFixed(0).padStart(4)} s${o.problem ? `  ${o.problem}` : ''}`,
  );
}
const failed = outcomes.filter((o) => o.problem);
if (failed.length > 0) {
  console.error(`bench:smoke: ${failed.length} of ${outcomes.length} benchmarks cannot run`);
  process.exit(1);
}
