// The system check `npm test` runs first (scripts/system-deps.mjs) and the Node version check of `npm start` and the
// command-line tools (scripts/node-version.mjs), run as the real scripts. A missing package is faked through the
// check's SYSTEM_DEPS_DPKG_QUERY (a stand-in for dpkg-query), and the check runs as a user who is not root, so
// nothing is ever installed or removed here. Nothing here touches a database: it runs in the PGlite project only.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeTooOld } from '../../../scripts/node-version.mjs';
import { dbKind } from './test-database.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts/system-deps.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'yueman-system-deps-'));
chmodSync(dir, 0o755); // readable by the user the check runs as

/** A dpkg-query stand-in that answers "installed" for every package asked about but `absent`. */
function fakeDpkgQuery(absent: string[]): string {
  const file = path.join(dir, `dpkg-query-${absent.join('-') || 'none'}`);
  writeFileSync(
    file,
    `#!/bin/sh\nshift 2\nfor p in "$@"; do\n  case " ${absent.join(' ')} " in *" $p "*) ;; *) echo "$p installed" ;; esac\ndone\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

const asRoot = process.getuid?.() === 0;

/**
 * Where the check runs from: the repository's own script and this Node, or, when the tests run as root, copies of
 * both that nobody can read. CI runs as root with Node kept under root's home (mode 700) and may clone there too.
 */
function runnable(): { node: string; check: string; cwd: string } {
  if (!asRoot) return { node: process.execPath, check: script, cwd: root };
  const scripts = path.join(dir, 'scripts');
  mkdirSync(scripts, { recursive: true });
  for (const name of ['scripts/system-deps.mjs', 'scripts/node-version.mjs', 'package.json'])
    copyFileSync(path.join(root, name), path.join(dir, name));
  const node = path.join(dir, 'node');
  if (!existsSync(node)) copyFileSync(process.execPath, node);
  chmodSync(scripts, 0o755);
  chmodSync(node, 0o755);
  return { node, check: path.join(scripts, 'system-deps.mjs'), cwd: dir };
}

/** The check as `npm test` runs it, as a user who is not root (nobody, when the tests run as root). */
function runCheck(env: Record<string, string>) {
  const { node, check, cwd } = runnable();
  const started = performance.now();
  const r = spawnSync(node, [check], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    timeout: 30_000,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - started };
}

describe.skipIf(dbKind !== 'pglite')('the system check of npm test', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops at once, not as root, with one message naming the missing package and its install command', () => {
    const run = runCheck({ SYSTEM_DEPS_DPKG_QUERY: fakeDpkgQuery(['pgbouncer', 'wrk']) });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm test needs Debian packages that are not installed: pgbouncer (');
    expect(lines[0]).toContain('wrk (the benchmarks)');
    expect(lines[0]).toContain('sudo apt-get install -y --no-install-recommends pgbouncer wrk');
    expect(lines[0]).not.toMatch(/chromium|nginx|redis-server|fonts-noto-cjk/);
    expect(run.ms).toBeLessThan(10_000);
  });

  it('passes silently when every package is installed', () => {
    const run = runCheck({ SYSTEM_DEPS_DPKG_QUERY: fakeDpkgQuery([]) });
    // This machine's PostgreSQL binaries are real: where they are missing, the check names the package.
    if (!existsSync('/usr/lib/postgresql')) {
      expect(run.stderr).toContain('postgresql (');
      return;
    }
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });

  it('on an older Node, says in one line which version it needs', () => {
    expect(nodeTooOld('v20.20.2')).toBe(
      '阅漫 needs Node 24 or newer (Node 24 LTS; 26 also works), and this is Node 20.20.2: install it from https://nodejs.org/ and run the command again.',
    );
    expect(nodeTooOld('v22.22.0')).toContain('this is Node 22.22.0');
    expect(nodeTooOld('v24.0.0')).toBeUndefined();
    expect(nodeTooOld('v26.1.0')).toBeUndefined();
  });

  // Debian bookworm's own Node is 20: where it is installed, `npm start`, the tools and the check meet a real one.
  const oldNode = '/usr/bin/node';
  const oldMajor = existsSync(oldNode)
    ? Number(spawnSync(oldNode, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout)
    : 0;
  it.skipIf(!(oldMajor > 0 && oldMajor < 24))(
    'npm start, the command-line tools and the check stop on a real older Node with that one line',
    () => {
      for (const args of [['scripts/start.mjs'], ['scripts/run-cli.mjs', 'operator'], [script]]) {
        const r = spawnSync(oldNode, args, { cwd: root, encoding: 'utf8', timeout: 30_000 });
        expect(r.status, args.join(' ')).toBe(1);
        expect(r.stderr.trim().split('\n'), args.join(' ')).toEqual([
          expect.stringMatching(/^阅漫 needs Node 24 or newer .*and this is Node 2\d\./),
        ]);
      }
    },
  );
});
