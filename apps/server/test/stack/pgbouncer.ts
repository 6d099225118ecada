// pgbouncer in transaction pooling mode in front of a test PostgreSQL cluster: how many servers share one database
// (docs/scaling.md). Debian's pgbouncer package; trust authentication on loopback, like the test cluster.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort, portOpen } from '../server-process.ts';
import { asPostgres, serviceDir } from './postgres.ts';

export const PGBOUNCER = '/usr/sbin/pgbouncer';
export const hasPgbouncer = () => existsSync(PGBOUNCER);

export interface Pgbouncer {
  /** The same database url as `target`, through pgbouncer. */
  url: string;
  stop(): Promise<void>;
}

/** pgbouncer on a free port, pooling every database of the cluster at `targetUrl` in transaction mode. */
export async function startPgbouncer(targetUrl: string, poolSize = 20): Promise<Pgbouncer> {
  const target = new URL(targetUrl);
  const dir = await serviceDir('yueman-pgbouncer-');
  const port = await freePort();
  const config = `[databases]
* = host=${target.hostname} port=${target.port} user=${target.username}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(dir, 'users.txt')}
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 1000
ignore_startup_parameters = extra_float_digits,options
logfile = ${path.join(dir, 'pgbouncer.log')}
pidfile = ${path.join(dir, 'pgbouncer.pid')}
`;
  await writeFile(path.join(dir, 'users.txt'), `"${target.username}" ""\n`);
  await writeFile(path.join(dir, 'pgbouncer.ini'), config);
  const child: ChildProcess = spawn(...asPostgres(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')]), {
    cwd: dir,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  while (!(await portOpen(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = await readFile(path.join(dir, 'pgbouncer.log'), 'utf8').catch(() => '');
      throw new Error(`pgbouncer did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = new URL(targetUrl);
  url.port = String(port);
  return {
    url: url.href,
    async stop() {
      // pgbouncer itself, not runuser in front of it (which does not pass signals on): SIGINT is its clean stop.
      const pid = Number(await readFile(path.join(dir, 'pgbouncer.pid'), 'utf8').catch(() => ''));
      if (pid > 0) process.kill(pid, 'SIGINT');
      else child.kill('SIGKILL');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
