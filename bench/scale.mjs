// `npm run bench:scale`: search and the lists at 100,000 books. Seeds a 100,000-book database (2,000,000
// chapters, and one book of 2,000 chapters) on PostgreSQL and on PGlite once, keeps it for the next run, and
// measures the p95 of every search and list call through the catalogue's service functions, beside the same SQL
// statements sent bare to the driver (node-postgres / PGlite's own query) in the same run, and EXPLAINs every
// statement: a sequential scan of books or chapters fails the bench. See bench/README.md.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import {
  envList,
  envNumber,
  fileStamp,
  fmt,
  freePort,
  machine,
  onCleanup,
  runMain,
  smoke,
  tempDir,
  writeResults,
} from './bench-kit.mjs';
import { childPids, cpuCores, cpuSnapshot, ticksOf, waitForQuiet } from './cpu.mjs';

const settings = {
  books: envNumber('BENCH_SCALE_BOOKS', 100_000, 1, 300),
  chapters: envNumber('BENCH_SCALE_CHAPTERS', 20, 1, 5),
  longChapters: envNumber('BENCH_SCALE_LONG_CHAPTERS', 2000, 1, 50),
  calls: envNumber('BENCH_SCALE_CALLS', 200, 20, 20),
  warmup: envNumber('BENCH_SCALE_WARMUP', 20, 0, 2),
  keywords: envNumber('BENCH_SCALE_KEYWORDS', 100, 1, 5),
  // A smoke run seeds its tiny library afresh in a throwaway folder: the kept 100,000-book one is left alone.
  dir: path.resolve(
    process.env.BENCH_SCALE_DIR ||
      (smoke ? tempDir('yueman-bench-scale-smoke-') : path.join(os.tmpdir(), 'yueman-bench-scale')),
  ),
  fresh: ['1', 'true', 'yes'].includes((process.env.BENCH_SCALE_FRESH ?? '').toLowerCase()),
  targets: envList('BENCH_TARGETS', 'postgres,pglite'),
  quietWaitMs: envNumber('BENCH_QUIET_WAIT', 120, 0, 0) * 1000,
};
const AIMS = { searchMs: 10, suggestMs: 5, listMs: 5, searchKeysMs: 60_000 };
const PG_ROOT = '/usr/lib/postgresql';

const data = await tsImport('./scale-data.ts', import.meta.url);
// BENCH_SCALE_CATALOG: a folder holding another version's catalog.repository.ts and catalog.service.ts (say, from
// `git show`, their imports pointed at this checkout), measured instead of this checkout's: the "before" figures.
const otherCatalog = process.env.BENCH_SCALE_CATALOG
  ? {
      createCatalogRepository: (
        await tsImport(
          path.resolve(process.env.BENCH_SCALE_CATALOG, 'catalog.repository.ts'),
          import.meta.url,
        )
      ).createCatalogRepository,
      service: await tsImport(
        path.resolve(process.env.BENCH_SCALE_CATALOG, 'catalog.service.ts'),
        import.meta.url,
      ),
    }
  : undefined;
const startedAt = new Date();

// ------------------------------------------------------------------------------------------- PostgreSQL

/** The bin folder of the newest installed PostgreSQL. */
function pgBin() {
  const versions = existsSync(PG_ROOT)
    ? execFileSync('ls', [PG_ROOT], { encoding: 'utf8' })
        .split('\n')
        .filter((v) => existsSync(path.join(PG_ROOT, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error(`PostgreSQL is not installed here (${PG_ROOT}/*/bin): apt-get install postgresql-15`);
  return path.join(PG_ROOT, newest, 'bin');
}

/**
 * The bench's own cluster, kept in BENCH_SCALE_DIR/pg between runs (its database is the reused part), started on a
 * free port and stopped at the end. As the tests' cluster: fsync and synchronous_commit off. PostgreSQL refuses to
 * run as root: as root, every server command runs as the postgres user, which owns the folder.
 */
async function startPostgres() {
  const bin = pgBin();
  const asRoot = process.getuid?.() === 0;
  const folder = path.join(settings.dir, 'pg');
  const dataDir = path.join(folder, 'data');
  mkdirSync(folder, { recursive: true });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(settings.dir, uid, gid);
    chownSync(folder, uid, gid);
  }
  const run = (tool, args) =>
    execFileSync(
      ...(asRoot
        ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]]
        : [path.join(bin, tool), args]),
      {
        cwd: folder,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      },
    );
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    run('initdb', [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
  }
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${folder}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  run('pg_ctl', [
    '-w',
    '-t',
    '120',
    '-D',
    dataDir,
    '-l',
    path.join(folder, 'server.log'),
    '-o',
    options,
    'start',
  ]);
  onCleanup(() => run('pg_ctl', ['-w', '-t', '120', '-D', dataDir, '-m', 'fast', 'stop']));
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  const exists = (await admin.query(`select 1 from pg_database where datname = 'scale'`)).rowCount > 0;
  if (!exists) await admin.query('CREATE DATABASE scale');
  const version = (await admin.query('SHOW server_version')).rows[0].server_version;
  await admin.end();
  const postmasterPid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  console.log(`PostgreSQL ${version} on 127.0.0.1:${port} (${dataDir})`);
  return { url: `postgres://postgres@127.0.0.1:${port}/scale`, version, postmasterPid };
}

/** The postmaster and its live backends: the database's side of a measurement. */
const postgresTicks = (pid) =>
  pid ? ticksOf(pid, true) + childPids(pid).reduce((sum, child) => sum + ticksOf(child), 0) : 0;

// ------------------------------------------------------------------------------------------------- runs

const seedLog = path.join(settings.dir, 'seed-times.json');
const readSeedLog = () => (existsSync(seedLog) ? JSON.parse(readFileSync(seedLog, 'utf8')) : {});

async function runTarget(name, target, postmasterPid) {
  console.log(`\n${name}: ${settings.books.toLocaleString('en')} books of ${settings.chapters} chapters`);
  const started = performance.now();
  const seed = await data.prepareScaleData(target, {
    books: settings.books,
    chapters: settings.chapters,
    longChapters: settings.longChapters,
  });
  const prepareMs = Math.round(performance.now() - started);
  const log = readSeedLog();
  if (!seed.reused) {
    log[name] = {
      books: seed.books,
      chapters: seed.chapters,
      scaleSeedMs: seed.scaleSeedMs,
      searchKeysMs: seed.searchKeysMs,
      at: new Date().toISOString(),
    };
    writeFileSync(seedLog, `${JSON.stringify(log, null, 2)}\n`);
    console.log(
      `  seeded in ${fmt(seed.scaleSeedMs / 1000, 1)} s (${fmt(prepareMs / 1000, 1)} s with migrations, demo and the long book)`,
    );
  } else {
    const earlier = log[name]?.scaleSeedMs;
    console.log(
      `  reused: ${fmt(seed.books)} books, ${fmt(seed.chapters)} chapters${earlier ? ` (seeded in ${fmt(earlier / 1000, 1)} s)` : ''}`,
    );
  }
  if (seed.searchKeysMs !== undefined) {
    console.log(
      `  search keys of every book (the index build) in ${fmt(seed.searchKeysMs / 1000, 1)} s (aim ${AIMS.searchKeysMs / 1000} s)`,
    );
  }
  await waitForQuiet(settings.quietWaitMs);
  const sides = { bench: () => ticksOf(process.pid), postgres: () => postgresTicks(postmasterPid) };
  const before = cpuSnapshot(sides);
  const cases = await data.measureScale(
    target,
    {
      calls: settings.calls,
      warmup: settings.warmup,
      keywords: settings.keywords,
      searchAimMs: AIMS.searchMs,
      suggestAimMs: AIMS.suggestMs,
      listAimMs: AIMS.listMs,
      longBookId: seed.longBookId,
    },
    (line) => console.log(`  ${line}`),
    otherCatalog,
  );
  const cores = cpuCores(before, cpuSnapshot(sides));
  if (cores)
    console.log(
      `  cores: bench ${cores.bench.toFixed(2)}, PostgreSQL ${cores.postgres.toFixed(2)}, other processes ${cores.other.toFixed(2)}`,
    );
  return {
    name,
    seed: { ...seed, seededAt: log[name]?.at, scaleSeedMs: seed.scaleSeedMs ?? log[name]?.scaleSeedMs },
    cores,
    cases,
  };
}

function markdown(report) {
  const lines = [
    `# Search and lists at ${fmt(settings.books)} books (${report.startedAt})`,
    '',
    `${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}. ${settings.calls} calls a case after ${settings.warmup} to warm up; ` +
      'p50/p95 in ms through the catalogue service, and of the same statements sent bare to the driver.',
  ];
  for (const t of report.targets) {
    lines.push(
      '',
      `## ${t.name}`,
      '',
      `Seed: ${t.seed.scaleSeedMs ? `${fmt(t.seed.scaleSeedMs / 1000, 1)} s` : 'not recorded'}${t.seed.reused ? ' (reused)' : ''}; search keys built in ${t.seed.searchKeysMs ? `${fmt(t.seed.searchKeysMs / 1000, 1)} s` : 'an earlier run'} (aim ${AIMS.searchKeysMs / 1000} s); other processes used ${t.cores ? t.cores.other.toFixed(2) : '?'} cores during the run.`,
      '',
      '| call | p50 | p95 | bare p50 | bare p95 | aim | EXPLAIN |',
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const c of t.cases) {
      const ok = c.p95 <= c.aimMs ? '' : ' **missed**';
      const plan =
        c.seqScans.length === 0 ? `no seq scan (${c.explained} plans)` : `**${c.seqScans.length} seq scans**`;
      lines.push(
        `| ${c.name} | ${fmt(c.p50, 2)} | ${fmt(c.p95, 2)}${ok} | ${fmt(c.bareP50, 2)} | ${fmt(c.bareP95, 2)} | ${c.aimMs} | ${plan} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main() {
  if (settings.fresh) rmSync(settings.dir, { recursive: true, force: true });
  mkdirSync(settings.dir, { recursive: true });
  const report = {
    startedAt: startedAt.toISOString(),
    settings,
    aims: AIMS,
    machine: machine(),
    targets: [],
  };
  for (const name of settings.targets) {
    if (name === 'postgres') {
      const server = await startPostgres();
      report.postgresVersion = server.version;
      report.targets.push(
        await runTarget('PostgreSQL', { kind: 'postgres', url: server.url }, server.postmasterPid),
      );
    } else if (name === 'pglite') {
      const dataDir = path.join(settings.dir, 'pglite');
      report.targets.push(await runTarget('PGlite', { kind: 'pglite', dataDir }, 0));
    } else {
      throw new Error(`unknown target ${name} (BENCH_TARGETS: postgres, pglite)`);
    }
  }
  writeResults(`scale-${fileStamp(startedAt)}`, report, markdown(report));
  const scans = report.targets.flatMap((t) =>
    t.cases.flatMap((c) => c.seqScans.map((s) => `${t.name}, ${c.name}: ${s}`)),
  );
  const missed = report.targets.flatMap((t) =>
    t.cases.filter((c) => c.p95 > c.aimMs).map((c) => `${t.name}, ${c.name}`),
  );
  if (missed.length > 0) console.log(`\naims missed (reported, not a failure): ${missed.join('; ')}`);
  if (scans.length > 0 && smoke) {
    // A few hundred books fit a page or two: the planner rightly scans them. The smoke run only proves the bench runs.
    console.log(
      `\nsmoke run: ${scans.length} sequential scans on the tiny library (expected there, not a failure)`,
    );
  } else if (scans.length > 0) {
    const shown = scans.slice(0, 10).map((s) => `  ${s.slice(0, 240)}`);
    if (scans.length > shown.length)
      shown.push(`  ... and ${scans.length - shown.length} more (the results file has them all)`);
    console.error(`\nFAILED: ${scans.length} sequential scans of books or chapters:\n${shown.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log('\nEXPLAIN: no sequential scan of books or chapters in any statement');
  }
}

runMain(main, 'PostgreSQL');
