import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import { type Database, poolOf } from '../db/client.ts';

/** What one pass of a loop did: whether it ran here (not elsewhere), and whether it asks to run again at once. */
export interface PassOutcome {
  ran: boolean;
  more: boolean;
}

/**
 * Runs one pass of the job `name` unless another server is running that job now: then answers { ran: false }
 * without running it. `run` answers whether there is more to do at once.
 */
export type JobLock = (name: string, run: () => Promise<boolean>) => Promise<PassOutcome>;

/** One process only (PGlite, which one process owns; unit tests): every pass runs. */
export const inProcessLock: JobLock = async (_name, run) => ({ ran: true, more: await run() });

/** First key of the background jobs' advisory locks; the second is hashtext(job name). (Pay apply's is 7_140_001.) */
export const JOB_LOCK = 7_140_002;
/**
 * How long the lock's transaction may sit idle while the pass works on other connections before PostgreSQL ends
 * it: a server that hangs (rather than dies, which ends its connections at once) frees its jobs after this.
 * Longer than any pass (the notifier's sends time out after 10 s).
 */
const LOCK_IDLE_LIMIT = '5min';

/**
 * How many jobs' passes one server runs at once on PostgreSQL. Each pass holds a pooled connection for its lock
 * and needs others for its work: with every job ticking at once (a dozen jobs at start, against a pool of 10),
 * the locks took every connection and each pass waited for one that never came, and so did every request. Three
 * leaves the pool's other seven to the passes' work and to readers.
 */
export const JOB_PASSES_AT_ONCE = 3;

/**
 * A job's passes run one server at a time across every server on this PostgreSQL database: each pass runs inside
 * a transaction that first takes the job's transaction-level advisory lock with pg_try_advisory_xact_lock, and
 * ends when the pass ends. The pass itself works on other pooled connections; the lock's connection only holds
 * the lock. A server that is running the job holds it; another that ticks meanwhile skips its pass. When the
 * holder dies its connection ends, PostgreSQL releases the lock, and the next server to tick runs the job.
 * Transaction-level, not session-level: a transaction pooler (pgbouncer, pool_mode = transaction) keeps one
 * server connection for a transaction, never for a session.
 *
 * The lock's connection is taken from the pool and watched here: it sits idle while the pass runs, and a
 * connection PostgreSQL ends while it is checked out and idle would otherwise be an unhandled 'error' event.
 *
 * On PGlite (one process, one connection) passes run as they are: a transaction there would hold the only
 * connection the pass needs.
 */
export function advisoryJobLock(db: Database): JobLock {
  const pool = poolOf(db);
  if (!pool) return inProcessLock;
  const passes = pLimit(JOB_PASSES_AT_ONCE);
  return (name, run) => passes(() => lockedPass(pool, name, run));
}

/** One pass of the job `name` inside a transaction holding its advisory lock (advisoryJobLock says why). */
async function lockedPass(
  pool: NonNullable<ReturnType<typeof poolOf>>,
  name: string,
  run: () => Promise<boolean>,
): Promise<PassOutcome> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost = err;
  };
  client.on('error', onError);
  let broken = false;
  const query = <R extends object>(text: string, values?: unknown[]) =>
    client.query<R>(text, values).catch((err: unknown) => {
      broken = true;
      throw err;
    });
  try {
    await query('begin');
    const { rows } = await query<{ locked: boolean }>(
      'select pg_try_advisory_xact_lock($1::int, hashtext($2)) as locked',
      [JOB_LOCK, name],
    );
    if (rows[0]?.locked !== true) {
      await query('rollback');
      return { ran: false, more: false };
    }
    await query(`set local idle_in_transaction_session_timeout = '${LOCK_IDLE_LIMIT}'`);
    let more: boolean;
    try {
      more = await run();
    } catch (err) {
      await query('rollback').catch(() => undefined);
      throw err;
    }
    // Fails when the connection was lost meanwhile: the lock was gone, and the pass is reported as failed.
    await query('commit');
    return { ran: true, more };
  } finally {
    client.off('error', onError);
    // A connection that failed is closed, not handed to the next caller.
    client.release(lost ?? broken);
  }
}

/**
 * Runs `run` every `intervalMs` in the server process, never two at once, and through the jobs' lock never on two
 * servers at once (BackgroundJobs.add gives it the lock). `run` answers true when there is more to do at once (a
 * full batch). wake() runs it now; stop() waits for a run in progress, so the database is still open while it
 * finishes. Timers are unref'd: a loop never keeps the process alive.
 */
export function backgroundLoop(opts: {
  name: string;
  intervalMs: number;
  run: () => Promise<boolean>;
  log: FastifyBaseLogger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let wakeRequested = false;
  let lock: JobLock = inProcessLock;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };

  /** One pass now; the next is scheduled when it ends (at once if it asks for more or a wake came meanwhile). */
  function pass(): Promise<PassOutcome> {
    wakeRequested = false;
    let more = false;
    const outcome = lock(opts.name, opts.run);
    running = outcome
      .then(
        (done) => {
          more = done.more;
        },
        (err: unknown) => opts.log.error({ err, loop: opts.name }, 'background run failed'),
      )
      .finally(() => {
        running = undefined;
        schedule(more || wakeRequested ? 0 : opts.intervalMs);
      });
    return outcome;
  }

  function tick() {
    // A pass in progress (runOnce) schedules the next when it ends.
    if (running || stopped) return;
    void pass();
  }

  return {
    name: opts.name,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake() {
      if (running) wakeRequested = true;
      else schedule(0);
    },
    /** One pass now, after any in progress, under the lock (tests, operations); rejects when the pass fails. */
    async runOnce(): Promise<PassOutcome> {
      while (running) await running;
      return pass();
    },
    /** The lock every pass runs under; BackgroundJobs.add sets it. */
    lockWith(jobLock: JobLock) {
      lock = jobLock;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type BackgroundLoop = ReturnType<typeof backgroundLoop>;

/**
 * The server's background loops (the session sweeper, the pay order sweeper, the sandbox notifier, the limits
 * sweeper): modules add theirs while they register; main.ts starts them all once the server listens, and
 * app.close() stops them. Every server runs the loops, and each pass takes its job's lock on the database
 * (advisoryJobLock), so at any moment at most one server runs a given job; with `db` left out (unit tests) passes
 * just run.
 */
export class BackgroundJobs {
  readonly #loops = new Map<string, BackgroundLoop>();
  readonly #lock: JobLock;

  constructor(db?: Database) {
    this.#lock = db ? advisoryJobLock(db) : inProcessLock;
  }

  add(loop: BackgroundLoop) {
    if (this.#loops.has(loop.name)) throw new Error(`background job ${loop.name} added twice`);
    loop.lockWith(this.#lock);
    this.#loops.set(loop.name, loop);
  }

  /** The names of the jobs, in the order they were added. */
  get names() {
    return [...this.#loops.keys()];
  }

  /** One pass of the job `name` now, under its lock: { ran: false } when another server is running it. */
  runOnce(name: string): Promise<PassOutcome> {
    const loop = this.#loops.get(name);
    if (!loop) throw new Error(`no background job ${name}`);
    return loop.runOnce();
  }

  start() {
    for (const loop of this.#loops.values()) loop.start();
  }

  /** Waits for runs in progress, so the database is still open while they finish. */
  async stop() {
    await Promise.all([...this.#loops.values()].map((loop) => loop.stop()));
  }
}
