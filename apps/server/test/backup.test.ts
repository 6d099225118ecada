// Backups and their restore, as docs/operations.md ("Backups") tells an operator to take them, through real processes:
// - the embedded database: `npm run backup` while the server takes purchases (no downtime: it keeps answering), then
//   `npm run restore` with it stopped; the restored ledger balances and holds every purchase answered before the
//   backup began; `npm run reconcile` runs the reconciliation queries through the server and on the stopped data
//   directory, and finds a discrepancy made on purpose;
// - PostgreSQL: the restore drill, pg_dump and pg_restore into a new database of the test cluster: the same rows in
//   every table, the same sequences, the ledger's invariants.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/shared/rows.ts';
import { runCli } from './cli-process.ts';
import { putDatabase } from './data-dirs.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { pricedChaptersOverHttp, readersWithCoins } from './money/money-test-kit.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { findBinaries } from './stack/postgres.ts';
import { createTestDatabase, dbKind, pgUrl, type TestDatabase } from './test-database.ts';

const run = promisify(execFile);
const payKey = randomBytes(32);
const dataCli = (args: string[], env: Record<string, string>) => runCli('data-cli', args, env);
const serverEnv = {
  SANDBOX_PAY_KEY: payKey.toString('hex'),
  REGISTER_PER_HOUR: '10000',
};

/** One purchase as the server answered it: charged, owned before (nothing charged), or refused (short of coins). */
async function buyOutcome(base: string, cookie: string, chapterId: number) {
  const res = await fetch(`${base}/api/book/chapter/buy?chapterId=${chapterId}`, {
    method: 'POST',
    headers: { cookie },
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`buy answered ${res.status}`);
  if (body.result !== true) return 'refused';
  return body.data.charged > 0 ? 'charged' : 'owned';
}

/** One purchase the reader can pay for; true when it was charged. */
async function buy(base: string, cookie: string, chapterId: number) {
  const outcome = await buyOutcome(base, cookie, chapterId);
  if (outcome === 'refused') throw new Error(`buy of chapter ${chapterId} refused`);
  return outcome === 'charged';
}

const rows = async <T>(db: Database, query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

const purchasesIn = async (db: Database) =>
  new Set(
    (await rows<{ k: string }>(db, sql`select user_id || ':' || chapter_id as k from chapter_purchases`)).map(
      (r) => r.k,
    ),
  );

describe.skipIf(dbKind === 'postgres')('backup and restore of the embedded database', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'yueman-backup-'));
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('backs up while purchases go on and /healthz answers, restores with the server stopped, reconciles', async () => {
    const dataDir = path.join(dir, 'data');
    await putDatabase(dataDir, 'demo');
    const env = { DATA_DIR: dataDir };
    server = await startServer(await freePort(), { ...env, ...serverEnv });
    const { base } = server;
    const readers = await readersWithCoins(base, 4, payKey);
    const chapters = await pricedChaptersOverHttp(base);

    // Purchases and health checks all along; the backup is taken in the middle of them. The last chapter of the list
    // is kept for after the backup, so that a sale after it is certain however long the copy takes: a slow machine may
    // let the readers buy all of the pool while it runs (those buys still answer, as owned). 40 chapters of at most
    // 60 coins leave each reader's 3300 coins enough for the kept one.
    const kept = chapters.at(-1) as number;
    const pool = chapters.slice(0, 40);
    expect(pool).not.toContain(kept);
    let backupStartedAt = Number.POSITIVE_INFINITY;
    let stop = false;
    let answered = 0;
    let failure: unknown;
    const boughtBeforeBackup = new Set<string>();
    const boughtAll = new Set<string>();
    const streams = readers.map(async (r, n) => {
      for (let i = 0; !stop; i++) {
        const chapter = pool[(i * readers.length + n) % pool.length] as number;
        const sentAt = Date.now();
        const outcome = await buyOutcome(base, r.cookie, chapter);
        answered++;
        if (outcome === 'charged') {
          boughtAll.add(`${r.userId}:${chapter}`);
          if (sentAt < backupStartedAt && Date.now() < backupStartedAt)
            boughtBeforeBackup.add(`${r.userId}:${chapter}`);
        }
      }
    });
    for (const s of streams) s.catch((e) => (failure ??= e));
    /** Waits for `done`, and gives up at once when a purchase stream failed. */
    const waitFor = async (done: () => boolean) => {
      while (!done()) {
        if (failure) throw failure;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const health: number[] = [];
    const prober = (async () => {
      while (!stop) {
        health.push(
          await fetch(`${base}/healthz`).then(
            (res) => res.status,
            () => 0,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await waitFor(() => boughtAll.size >= 20);

    const file = path.join(dir, 'yueman-backup.tar.gz');
    backupStartedAt = Date.now();
    const backup = await dataCli(['backup', file], env);
    const answeredDuringBackup = answered;
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('taken by the running server');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The server kept answering purchases while and after the copy was taken, and sells the kept chapter.
    await waitFor(() => answered >= answeredDuringBackup + 10);
    stop = true;
    await Promise.all([...streams, prober]);
    for (const r of readers) {
      expect(await buyOutcome(base, r.cookie, kept)).toBe('charged');
      boughtAll.add(`${r.userId}:${kept}`);
    }
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);

    // Never over an existing file; no restore under a running server (nothing changes).
    const again = await dataCli(['backup', file], env);
    expect(again.code, again.out).toBe(1);
    expect(again.out).toMatch(/exists/);
    const underServer = await dataCli(['restore', file], env);
    expect(underServer.code, underServer.out).toBe(1);
    expect(underServer.out).toMatch(/stop it first/);

    // The reconciliation queries, run by the server.
    const live = await dataCli(['reconcile'], env);
    expect(live.code, live.out).toBe(0);
    expect(live.out).toContain('the ledger balances');
    expect(live.out).toMatch(/orders of \d{4}-\d{2}-\d{2} \(China time\) with what they credited/);

    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;

    // Not a backup: refused, the database untouched.
    const junk = path.join(dir, 'junk.tar.gz');
    await writeFile(junk, 'not a backup');
    const refused = await dataCli(['restore', junk], env);
    expect(refused.code, refused.out).toBe(1);

    const restored = await dataCli(['restore', file], env);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/pglite\.before-restore-/);

    const { db, close } = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await expectLedgerInvariants(db);
      const restoredPurchases = await purchasesIn(db);
      // Everything answered before the backup began is in it; nothing that was not sold.
      for (const k of boughtBeforeBackup) expect(restoredPurchases.has(k), k).toBe(true);
      for (const k of restoredPurchases) expect(boughtAll.has(k), k).toBe(true);
      expect(restoredPurchases.has(`${readers[0]?.userId}:${kept}`)).toBe(false);
      // A discrepancy made on purpose, for the check to find.
      await db.execute(
        sql`update ledger_accounts set balance = balance + 1 where user_id = ${readers[0]?.userId ?? 0}`,
      );
    } finally {
      await close();
    }
    const offline = await dataCli(['reconcile', '--json'], env);
    expect(offline.code, offline.out).toBe(1);
    const report = JSON.parse(offline.out.trim().split('\n').at(-1) ?? '{}');
    expect(report.ok).toBe(false);
    const drift = report.sections.find((s: { title: string }) => s.title.includes('balances that differ'));
    expect(drift.rows).toHaveLength(1);

    // The restored data directory starts and serves the readers' purchases.
    server = await startServer(await freePort(), { ...env, ...serverEnv });
    const info = await fetch(`${server.base}/api/user/info`, {
      headers: { cookie: readers[1]?.cookie ?? '' },
    });
    expect(info.status).toBe(200);
  }, 240_000);
});

describe.skipIf(dbKind !== 'postgres' || !pgUrl)('PostgreSQL restore drill: pg_dump, pg_restore', () => {
  let dir: string;
  let source: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  const restoredName = `t_restored_${randomBytes(4).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'yueman-pg-backup-'));
    source = await createTestDatabase({ demo: true });
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await source?.close();
    await admin(`DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('restores into a new database with the same rows, sequences and a balanced ledger', async () => {
    const url = source?.url as string;
    server = await startServer(await freePort(), {
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: url,
      ...serverEnv,
    });
    const readers = await readersWithCoins(server.base, 3, payKey);
    const chapters = await pricedChaptersOverHttp(server.base);
    for (const [n, r] of readers.entries())
      for (const chapter of chapters.slice(n, n + 5)) await buy(server.base, r.cookie, chapter);

    // The server stopped first only so that the rows compared below cannot move (its jobs write now and then); pg_dump
    // itself takes one consistent snapshot while servers run, as docs/operations.md says. Its custom format.
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
    const bin = findBinaries() as string;
    const file = path.join(dir, 'yueman.dump');
    await run(path.join(bin, 'pg_dump'), ['-Fc', '-f', file, '-d', url]);

    await admin(`CREATE DATABASE "${restoredName}"`);
    const restoredUrl = new URL(pgUrl);
    restoredUrl.pathname = `/${restoredName}`;
    await run(path.join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', '-d', restoredUrl.href, file]);

    const counts = async (db: Database) => {
      const tables = await rows<{ name: string }>(
        db,
        sql`select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
            where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'
            order by 1`,
      );
      const out: Record<string, number> = {};
      for (const { name } of tables) {
        const [row] = await rows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${name}`));
        out[name] = row?.n ?? -1;
      }
      const sequences = await rows<{ name: string; last: string | null }>(
        db,
        sql`select schemaname || '.' || sequencename as name, last_value::text as last from pg_sequences order by 1`,
      );
      for (const s of sequences) out[`sequence ${s.name}`] = Number(s.last ?? 0);
      return out;
    };
    const before = await counts(source?.db as Database);
    const restored = await openDatabase({ kind: 'postgres', url: restoredUrl.href });
    try {
      expect(await counts(restored.db)).toEqual(before);
      expect(before['public.chapter_purchases']).toBeGreaterThanOrEqual(15);
      expect(before['public.pay_orders']).toBe(3);
      await expectLedgerInvariants(restored.db);
    } finally {
      await restored.close();
    }
    // The reconciliation queries on PostgreSQL, through the same command.
    const reconciled = await dataCli(['reconcile'], { DATABASE_URL: restoredUrl.href });
    expect(reconciled.code, reconciled.out).toBe(0);
    expect(reconciled.out).toContain('the ledger balances');
    const backup = await dataCli(['backup', path.join(dir, 'x')], { DATABASE_URL: restoredUrl.href });
    expect(backup.code).toBe(2);
    expect(backup.out).toMatch(/pg_dump/);
  }, 240_000);
});
