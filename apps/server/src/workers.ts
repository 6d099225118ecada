import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

export interface WorkersOptions {
  /** Once every worker has listened. */
  onListening?: () => void;
}

/**
 * WEB_CONCURRENCY > 1: this process forks that many server processes on its port (node:cluster) and watches them.
 * With PostgreSQL each worker is a whole server, as a second machine behind a balancer would be: everything they
 * share is in the database or the store (docs/scaling.md), background jobs run once across them by their advisory
 * locks, and migrations once by theirs. The embedded database is one process's: main.ts forks no workers for it.
 *
 * - A worker that dies after it started listening is replaced (one a second at most, so a crash loop does not spin).
 * - A worker that dies before it ever listened means the server cannot start here (database unreachable, port
 *   taken): the others are stopped and this process exits 1, as a single server would.
 * - SIGTERM / SIGINT go to every worker, which drains as a single server does (main.ts); this process exits once
 *   all have, 0 when every one exited 0.
 */
export function runWorkers(count: number, log: Logger, opts: WorkersOptions = {}): void {
  let stopping: NodeJS.Signals | null = null;
  let failed = false;
  const alive = new Set<Worker>();
  const listened = new WeakSet<Worker>();

  let listening = 0;
  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.once('listening', () => {
      listened.add(worker);
      if (++listening === count) opts.onListening?.();
    });
  };
  const exit = () => process.exit(failed ? 1 : 0);

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = signal;
    log.info({ signal, workers: alive.size }, 'stopping the server processes');
    for (const worker of alive) worker.process.kill(signal);
    if (alive.size === 0) exit();
  };

  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker);
    if (stopping) {
      // A worker still starting has no handler for the signal yet, and its default action ends it: not a failure.
      if (code !== 0 && signal !== stopping) failed = true;
      if (alive.size === 0) exit();
      return;
    }
    if (!listened.has(worker)) {
      log.fatal({ pid: worker.process.pid, code, signal }, 'a server process could not start: stopping');
      failed = true;
      stop('SIGTERM');
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'a server process died: starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, 1000);
  });

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < count; i++) fork();
  log.info({ workers: count }, 'started the server processes');
}
