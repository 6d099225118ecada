// A throwaway PostgreSQL cluster from Debian's binaries, for the server-postgres suite and the cluster test: a temp
// folder, a free port on 127.0.0.1, trust authentication, no durability. As root, every server command runs as the
// postgres user (PostgreSQL refuses to run as root).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chown, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../server-process.ts';

const run = promisify(execFile);
export const pgRoot = '/usr/lib/postgresql';

/** The bin folder of the newest installed PostgreSQL, or undefined. */
export function findBinaries(): string | undefined {
  if (!existsSync(pgRoot)) return undefined;
  const versions = readdirSync(pgRoot)
    .filter((v) => existsSync(path.join(pgRoot, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : path.join(pgRoot, versions[0], 'bin');
}

const asRoot = () => process.getuid?.() === 0;

/** A folder the postgres user owns when we are root (the cluster's, or a helper's such as pgbouncer's). */
export async function serviceDir(prefix: string) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  if (asRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    await chown(dir, uid, gid);
  }
  return dir;
}

/** A command as the postgres user when we are root. */
export const asPostgres = (file: string, args: string[]): [string, string[]] =>
  asRoot() ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];

export interface PostgresCluster {
  /** Admin url: postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** Stops the server (fast) and removes its folder; safe to call twice. */
  stop(): Promise<void>;
  /** The same, synchronously, immediate: for exit and signal handlers. */
  stopSync(): void;
}

/** Starts a cluster with `settings` as extra `-c name=value` server settings. */
export async function startPostgres(bin: string, settings: string[] = []): Promise<PostgresCluster> {
  const dir = await serviceDir('yueman-pg-');
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const tool = (name: string, args: string[]) => asPostgres(path.join(bin, name), args);
  // cwd is the cluster folder: the postgres user may not be allowed into the caller's folder.
  const exec = (name: string, args: string[]) => run(...tool(name, args), { cwd: dir });

  let running = false;
  let removed = false;
  const stopSync = () => {
    if (removed) return;
    if (running) {
      try {
        execFileSync(...tool('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']), {
          cwd: dir,
          stdio: 'ignore',
        });
      } catch {}
      running = false;
    }
    rmSync(dir, { recursive: true, force: true });
    removed = true;
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
    // A port picked free can be taken before the server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=200',
        ...settings.map((s) => `-c ${s}`),
      ].join(' ');
      try {
        await exec('pg_ctl', ['-w', '-t', '60', '-D', dataDir, '-l', logFile, '-o', options, 'start']);
        running = true;
        return {
          url: `postgres://postgres@127.0.0.1:${port}/postgres`,
          port,
          stopSync,
          async stop() {
            if (running) {
              await exec('pg_ctl', ['-w', '-D', dataDir, '-m', 'fast', 'stop']).then(
                () => {
                  running = false;
                },
                () => undefined, // stopSync retries with an immediate stop
              );
            }
            stopSync();
          },
        };
      } catch (error) {
        if (attempt >= 3) {
          const log = await readFile(logFile, 'utf8').catch(() => '');
          throw new Error(`PostgreSQL did not start:\n${log}`, { cause: error });
        }
      }
    }
  } catch (error) {
    stopSync();
    throw error;
  }
}
