// Timed work runs on one server at a time (shared/background-loop.ts): each pass of a job takes the job's
// transaction-level advisory lock; another server's pass meanwhile is skipped, and when the holder dies the next
// server to tick runs the job. Two apps on one PostgreSQL database sweeping stale orders at once expire each order
// exactly once. On PGlite (one process) every pass just runs.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../src/db/client.ts';
import { payOrderEvents, payOrders } from '../src/db/schema/index.ts';
import { applyUrl, demo } from '../src/modules/payments/payments.test-support.ts';
import {
  BackgroundJobs,
  backgroundLoop,
  JOB_LOCK,
  JOB_PASSES_AT_ONCE,
} from '../src/shared/background-loop.ts';
import { rowsOf } from '../src/shared/rows.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { createTestDatabase, dbKind, type TestDatabase } from './test-database.ts';
import { manyVisitorsEnv, registerVisitor } from './visitors.ts';

const silent = { error() {}, warn() {}, info() {}, debug() {} } as never;

/** Dropping the database WITH (FORCE), or killing a lock's holder, ends connections a pool still has (57P01). */
const quietOnDrop = (err: Error) => {
  if ((err as { code?: string }).code !== '57P01') console.error('test database connection lost', err);
};

/** A job whose pass signals when it starts and ends when the test lets it. */
function gatedJob(name: string) {
  const passes: string[] = [];
  let started: () => void = () => undefined;
  let finish: () => void = () => undefined;
  const loop = backgroundLoop({
    name,
    intervalMs: 3_600_000,
    log: silent,
    run: () =>
      new Promise<boolean>((resolve) => {
        passes.push(name);
        finish = () => resolve(false);
        started();
      }),
  });
  return {
    loop,
    passes,
    /**
     * Starts a pass through `jobs` and answers once its run is under way, or the pass ended without running;
     * `outcome` settles when the pass ends.
     */
    async begin(jobs: BackgroundJobs) {
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const outcome = jobs.runOnce(name);
      await Promise.race([running, outcome.catch(() => undefined)]);
      return { outcome };
    },
    finish: () => finish(),
  };
}

describe.skipIf(dbKind !== 'pglite')('background jobs on PGlite', () => {
  it('run every pass in the one process that owns the database', async () => {
    const database = await createTestDatabase();
    try {
      const jobs = new BackgroundJobs(database.db);
      let passes = 0;
      jobs.add(
        backgroundLoop({
          name: 'solo',
          intervalMs: 3_600_000,
          log: silent,
          run: async () => ++passes < 2,
        }),
      );
      expect(await jobs.runOnce('solo')).toEqual({ ran: true, more: true });
      expect(await jobs.runOnce('solo')).toEqual({ ran: true, more: false });
      expect(passes).toBe(2);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(dbKind !== 'postgres')('background jobs on PostgreSQL, across servers', () => {
  let database: TestDatabase;
  let other: OpenedDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    other = await openDatabase({ kind: 'postgres', url: database.url ?? '', onPoolError: quietOnDrop });
  });
  afterAll(async () => {
    await other?.close();
    await database?.close();
  });

  /** The backend holding a job's advisory lock in this database. */
  async function holderOf(name: string) {
    const rows = rowsOf<{ pid: number }>(
      await other.db.execute(sql`
        select l.pid from pg_locks l join pg_database d on d.oid = l.database
        where l.locktype = 'advisory' and d.datname = current_database() and l.granted
          and l.classid = ${JOB_LOCK}::int::oid and l.objsubid = 2
          and l.objid = (hashtext(${name})::bigint & 4294967295)::text::oid`),
    );
    return rows.map((r) => r.pid);
  }

  it('runs a job on one server at a time; when the holder dies, the next server to tick runs it', async () => {
    const jobsA = new BackgroundJobs(database.db);
    const jobsB = new BackgroundJobs(other.db);
    const a = gatedJob('gated');
    const b = gatedJob('gated');
    jobsA.add(a.loop);
    jobsB.add(b.loop);

    // A runs; B's pass meanwhile is skipped without running.
    const { outcome: passA } = await a.begin(jobsA);
    expect(await jobsB.runOnce('gated')).toEqual({ ran: false, more: false });
    expect(b.passes).toEqual([]);
    a.finish();
    expect(await passA).toEqual({ ran: true, more: false });
    // Free again: B runs the next pass.
    const { outcome: passB } = await b.begin(jobsB);
    b.finish();
    expect(await passB).toEqual({ ran: true, more: false });

    // A runs and dies mid-pass (its connection ends: a killed process, a lost host): B's next tick runs the job.
    const { outcome: dying } = await a.begin(jobsA);
    const [holder] = await holderOf('gated');
    expect(holder).toBeTypeOf('number');
    await other.db.execute(sql`select pg_terminate_backend(${holder}::int)`);
    for (let i = 0; i < 50 && (await holderOf('gated')).length > 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const { outcome: taken } = await b.begin(jobsB);
    expect(b.passes).toEqual(['gated', 'gated']);
    b.finish();
    expect(await taken).toEqual({ ran: true, more: false });
    // The dead holder's pass cannot commit: it is reported as failed, and the process lives on.
    a.finish();
    await expect(dying).rejects.toThrow();
    expect(a.passes).toEqual(['gated', 'gated']);
  });

  it('holds the lock in a transaction, so it is released whatever the pass does', async () => {
    const jobs = new BackgroundJobs(database.db);
    jobs.add(
      backgroundLoop({
        name: 'failing',
        intervalMs: 3_600_000,
        log: silent,
        run: async () => {
          expect(await holderOf('failing')).toHaveLength(1);
          throw new Error('pass failed');
        },
      }),
    );
    await expect(jobs.runOnce('failing')).rejects.toThrow('pass failed');
    expect(await holderOf('failing')).toEqual([]);
  });

  it('never runs a job on two servers at once while both loops tick', async () => {
    const servers = [new BackgroundJobs(database.db), new BackgroundJobs(other.db)];
    let inside = 0;
    let most = 0;
    const passesBy = [0, 0];
    servers.forEach((jobs, i) => {
      jobs.add(
        backgroundLoop({
          name: 'ticking',
          intervalMs: 1,
          log: silent,
          run: async () => {
            most = Math.max(most, ++inside);
            passesBy[i] = (passesBy[i] ?? 0) + 1;
            await new Promise((r) => setTimeout(r, 5));
            inside--;
            return false;
          },
        }),
      );
      jobs.start();
    });
    await new Promise((r) => setTimeout(r, 600));
    await Promise.all(servers.map((jobs) => jobs.stop()));
    expect(most).toBe(1);
    expect((passesBy[0] ?? 0) + (passesBy[1] ?? 0)).toBeGreaterThan(5);
  });
});

describe.skipIf(dbKind !== 'postgres')('more jobs than the pool has connections', () => {
  let database: TestDatabase;
  let small: OpenedDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    small = await openDatabase({ kind: 'postgres', url: database.url ?? '', poolSize: 4 });
  });
  afterAll(async () => {
    await small?.close();
    await database?.close();
  });

  it('runs every pass and keeps connections for requests when every job ticks at once', async () => {
    // Each pass needs a pooled connection for its work beside its lock's: eight at once on a pool of four once took
    // every connection for the locks, and every pass (and every request) waited for ever.
    const jobs = new BackgroundJobs(small.db);
    const names = Array.from({ length: 8 }, (_, i) => `busy-${i}`);
    let most = 0;
    let inside = 0;
    for (const name of names)
      jobs.add(
        backgroundLoop({
          name,
          intervalMs: 3_600_000,
          log: silent,
          run: async () => {
            most = Math.max(most, ++inside);
            await small.db.execute(sql`select pg_sleep(0.05)`);
            inside--;
            return false;
          },
        }),
      );
    const stuck = new Promise<string>((resolve) => setTimeout(() => resolve('stuck'), 10_000).unref());
    const passes = Promise.all(names.map((name) => jobs.runOnce(name)));
    const request = small.db.execute(sql`select 1 as one`).then(() => 'answered');
    expect(await Promise.race([request, stuck])).toBe('answered');
    expect(await Promise.race([passes, stuck])).toEqual(names.map(() => ({ ran: true, more: false })));
    expect(most).toBeLessThanOrEqual(JOB_PASSES_AT_ONCE);
  });
});

describe.skipIf(dbKind !== 'postgres')('the order sweeper on two servers', () => {
  let database: TestDatabase;
  let other: OpenedDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    other = await openDatabase({ kind: 'postgres', url: database.url ?? '', onPoolError: quietOnDrop });
    // Payers from addresses of their own: the sandbox takes them only when the operator says so.
    const env = { ...manyVisitorsEnv, SANDBOX_PAY: 'true' };
    a = await createTestApp({ db: database.db, env });
    b = await createTestApp({ db: other.db, env, seed: false });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await other?.close();
    await database?.close();
  });

  it('expires each stale order exactly once when both sweep at the same moment', async () => {
    const orderIds: number[] = [];
    for (let i = 0; i < 30; i++) {
      const reader = await registerVisitor(i % 2 ? a : b, { ip: `10.77.0.${i}` });
      const res = await (i % 2 ? b : a).app.inject({
        url: applyUrl({ ...demo.coin600, payChannel: 'wechat_h5', rechargerAmount: 570 }),
        headers: { cookie: reader.cookie },
        remoteAddress: `10.77.1.${i}`,
      });
      expect(res.statusCode, res.body).toBe(302);
      const [order] = await a.db.select().from(payOrders).where(eq(payOrders.userId, reader.userId));
      orderIds.push(order?.id ?? 0);
    }
    await a.db
      .update(payOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(inArray(payOrders.id, orderIds));

    // Both servers' sweepers fire together, several times over.
    const outcomes = (
      await Promise.all(
        Array.from({ length: 4 }, () => [
          a.app.jobs.runOnce('pay-order-sweeper'),
          b.app.jobs.runOnce('pay-order-sweeper'),
        ]).flat(),
      )
    ).map((o) => o.ran);
    expect(outcomes).toContain(true);

    const events = await a.db.select().from(payOrderEvents).where(inArray(payOrderEvents.orderId, orderIds));
    const expired = events.filter((e) => e.toStatus === 'expired');
    expect(expired.map((e) => e.orderId).sort((x, y) => x - y)).toEqual([...orderIds].sort((x, y) => x - y));
    const orders = await a.db.select().from(payOrders).where(inArray(payOrders.id, orderIds));
    expect(orders.every((o) => o.status === 'expired')).toBe(true);
  });
});
