// Vitest globalSetup of the server-postgres project: a throwaway PostgreSQL cluster for one test run.
// Tests reach it through inject('pgUrl'); test-database.ts creates one database per caller in it.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chown, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin url of the test cluster; empty when PostgreSQL is missing outside CI. */
    pgUrl: string;
  }
}

const run = promisify(execFile);
const pgRoot = '/usr/lib/postgresql';

/** The bin folder of the newest installed PostgreSQL, or undefined. */
function findBinaries(): string | undefined {
  if (!existsSync(pgRoot)) return undefined;
  const versions = readdirSync(pgRoot)
    .filter((v) => existsSync(path.join(pgRoot, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : path.join(pgRoot, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export default async function setup(project: TestProject) {
  const bin = findBinaries();
  if (!bin) {
    if (process.env.CI) {
      throw new Error(
        `PostgreSQL binaries not found under ${pgRoot}: CI needs them (Debian package postgresql-15)`,
      );
    }
    console.warn(
      `PostgreSQL binaries not found under ${pgRoot}: the PostgreSQL suite is skipped; the PGlite suite still runs`,
    );
    project.provide('pgUrl', '');
    return;
  }

  const started = performance.now();
  // PostgreSQL refuses to run as root; as root every server command runs as the postgres user.
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(tmpdir(), 'yueman-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    await chown(dir, uid, gid);
  }
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const command = (tool: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
  // cwd is the cluster folder: the postgres user may not be allowed into the caller's folder.
  const exec = (tool: string, args: string[]) => run(...command(tool, args), { cwd: dir });

  let running = false;
  let removed = false;
  // Synchronous so it also works from 'exit' and signal handlers; safe to call twice.
  const cleanupSync = () => {
    if (removed) return;
    if (running) {
      try {
        execFileSync(...command('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']), {
          cwd: dir,
          stdio: 'ignore',
        });
      } catch {}
      running = false;
    }
    rmSync(dir, { recursive: true, force: true });
    removed = true;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    cleanupSync();
    process.off(signal, onSignal);
    // Without other listeners, fall back to the default action (exit by the signal).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.once('exit', cleanupSync);
  const unhook = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', cleanupSync);
  };

  try {
    const initdb = ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'];
    try {
      await exec('initdb', [...initdb, '--locale=C.UTF-8']);
    } catch {
      // A machine without the C.UTF-8 locale: byte-order collation, still UTF8 text.
      rmSync(dataDir, { recursive: true, force: true });
      await exec('initdb', [...initdb, '--no-locale']);
    }
    let url = '';
    // A port picked free can be taken before the server binds it: try a few.
    for (let attempt = 1; !url; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=200',
      ].join(' ');
      try {
        await exec('pg_ctl', ['-w', '-t', '60', '-D', dataDir, '-l', logFile, '-o', options, 'start']);
        running = true;
        url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      } catch (error) {
        if (attempt >= 3) {
          const log = await readFile(logFile, 'utf8').catch(() => '');
          throw new Error(`PostgreSQL test cluster did not start:\n${log}`, { cause: error });
        }
      }
    }
    project.provide('pgUrl', url);
    const version = path.basename(path.dirname(bin));
    const ms = Math.round(performance.now() - started);
    console.log(`PostgreSQL ${version} test cluster on ${url} (started in ${ms} ms)`);
  } catch (error) {
    cleanupSync();
    unhook();
    throw error;
  }

  return async () => {
    unhook();
    if (running) {
      await exec('pg_ctl', ['-w', '-D', dataDir, '-m', 'fast', 'stop']).then(
        () => {
          running = false;
        },
        () => undefined, // cleanupSync retries with an immediate stop
      );
    }
    cleanupSync();
  };
}
