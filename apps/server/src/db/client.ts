import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type QueryOptions, type Results, type Transaction, types } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
// Both drivers expose the same pg-core query builder; repositories only see this type.
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** The database or a transaction on it: a repository call that must join its caller's transaction takes one. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface OpenedDatabase {
  db: Database;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number; onPoolError?: (err: Error) => void }
  | { kind: 'pglite'; dataDir: string }
  /**
   * In memory; `from` is a data directory PGlite dumped (dumpDataDir): the tests start each database from a migrated
   * copy, since a PGlite without one runs initdb, seconds of work, every time.
   */
  | { kind: 'pglite-memory'; from?: Blob };

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** The `pg` Pool under a handle on a PostgreSQL server (for a connection held on its own); undefined on PGlite. */
export function poolOf(db: Database): pg.Pool | undefined {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
}

// Handles whose connections go through a transaction-pooling pooler (DATABASE_POOLER=pgbouncer).
const pooled = new WeakSet<Database>();

/**
 * Marks a handle as going through a transaction-pooling pooler (pgbouncer's pool_mode = transaction, Debian 12's
 * 1.18): each transaction, or statement outside one, may run on another server connection, so nothing may rest in
 * a session between them. The repositories' named prepared statements (statementName) then go unnamed.
 */
export function behindTransactionPooler(db: Database) {
  pooled.add(db);
}

/**
 * The name of a statement a repository builds once (`.prepare(statementName(db, 'x'))`): on PostgreSQL a named
 * statement is parsed and planned once per connection. Behind a transaction pooler it is '' (unnamed: parsed with
 * every execution), since the server connection that parsed it is not necessarily the next one's; pgbouncer
 * before 1.21 does not carry named statements across. PGlite ignores the name.
 */
export function statementName(db: Database, name: string): string {
  return pooled.has(db) ? '' : name;
}

/**
 * A connection the PostgreSQL server ends (restart, failover, pg_terminate_backend) makes its `pg` client emit
 * 'error'; an 'error' event nobody listens to kills the process. The pool listens only while a client is idle, so
 * every client also gets a listener of its own for its whole life, the checked-out ones included: the query in
 * flight fails (its request answers an error in the envelope), the pool drops the broken client when it is
 * released, and the next query gets a new connection. Each lost connection is reported once.
 */
export function handleLostConnections(pool: pg.Pool, onLost: (err: Error) => void) {
  const reported = new WeakSet<pg.ClientBase>();
  const lost = (err: Error, client: pg.ClientBase) => {
    if (reported.has(client)) return;
    reported.add(client);
    onLost(err);
  };
  pool.on('error', lost);
  pool.on('connect', (client) => {
    client.on('error', (err) => lost(err, client));
  });
}

/** Any fixed number: serialises the migrations of several servers starting on one database at the same moment. */
const MIGRATION_LOCK = 7_202_612;

/**
 * Brings a PostgreSQL database up to date, once however many servers start at the same moment: the first to take
 * the lock migrates, the others wait for it and then find nothing to do. One connection of its own, one transaction
 * (so it also holds behind pgbouncer's transaction pooling). drizzle's migrator sends its own BEGIN ... COMMIT:
 * inside ours PostgreSQL takes that BEGIN as a no-op (a warning), and its COMMIT ends the whole transaction, the
 * lock with it, once every migration is in; a failure rolls everything back.
 */
async function migrateOnce(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    // A no-op after the migrator's COMMIT; undoes everything when it failed before it.
    await client.query('rollback').catch(() => undefined);
    await client.end();
  }
}

/** Opens the database and brings its schema up to date. The caller holds the data-dir lock for PGlite. */
export async function openDatabase(target: DatabaseTarget): Promise<OpenedDatabase> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    handleLostConnections(
      pool,
      target.onPoolError ?? ((err) => console.error('PostgreSQL connection lost:', err.message)),
    );
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    await migrateOnce(target.url);
    return { db: db as unknown as Database, driver: 'postgres', close: () => pool.end() };
  }
  let client: DrizzlePGlite;
  if (target.kind === 'pglite') {
    const dir = path.resolve(target.dataDir, 'pglite');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await ownerOnly(dir);
    client = new DrizzlePGlite({ fs: new OwnerOnlyNodeFS(dir) });
  } else {
    client = new DrizzlePGlite(target.from ? { loadDataDir: target.from } : {});
  }
  await client.waitReady;
  // After start-up, which fills the table with PGlite's array parsers: these replace some of them.
  Object.assign(client.parsers, TEXT_PARSERS);
  const db = drizzlePglite(client, { schema, casing: 'snake_case' });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Database, driver: 'pglite', close: () => client.close() };
}

type ModeCall = (path: unknown, mode?: number, more?: unknown) => unknown;

/**
 * PGlite's file system in DATA_DIR/pglite, where every file is its user's alone (0600, folders 0700), whatever the
 * umask of the process that opens it (the server sets 077; the command-line tools may not). Emscripten's FS creates
 * a file and then chmods it to the mode PostgreSQL asked for (0666 in PGlite), past any umask: its mkdir, mknod and
 * chmod (the Emscripten module's public FS) keep only the owner's bits here.
 */
class OwnerOnlyNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const ownerOnly = (mod: { FS: Record<'chmod' | 'mkdir' | 'mknod', ModeCall> }) => {
      for (const call of ['chmod', 'mkdir', 'mknod'] as const) {
        const inFs = mod.FS[call].bind(mod.FS);
        // FS.mkdir's mode defaults to 0777.
        mod.FS[call] = (path, mode = 0o777, more) => inFs(path, mode & ~0o077, more);
      }
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), ownerOnly] } };
  }
}

/** Takes group's and others' bits off every entry under `dir` (a database written before PGlite's files were 0600). */
async function ownerOnly(dir: string) {
  for (const entry of await readdir(dir, { recursive: true })) {
    const file = path.join(dir, entry);
    const stat = await lstat(file);
    if (!stat.isSymbolicLink() && stat.mode & 0o077) await chmod(file, stat.mode & 0o700);
  }
}

// drizzle's PGlite driver maps these types from their text itself, so it asks PGlite to leave them as text,
// passing these parsers (all `value => value`) with every query. PGlite then merges them into a copy of its
// whole parser table (~318 entries, ~90 µs) for every query. Installed once on the client instead, and left
// out of each query that passes exactly these, the results are the same and nothing is copied.
const asText = (value: string) => value;
const TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];
const TEXT_PARSERS = Object.fromEntries(TEXT_TYPES.map((type) => [type, asText]));

/** The options without `parsers` when every parser in them is one of TEXT_PARSERS' types; else unchanged. */
function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  for (const type of Object.keys(options.parsers)) if (!(type in TEXT_PARSERS)) return options;
  const { parsers: _, ...rest } = options;
  return rest;
}

/** PGlite for drizzle: queries, in a transaction or not, leave out the parsers installed on the client. */
class DrizzlePGlite extends PGlite {
  override query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return super.query<T>(query, params, withoutTextParsers(options));
  }

  override transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) =>
      callback({
        query: <R>(query: string, params?: unknown[], options?: QueryOptions) =>
          tx.query<R>(query, params, withoutTextParsers(options)),
        sql: (strings, ...params) => tx.sql(strings, ...params),
        exec: (query, options) => tx.exec(query, options),
        rollback: () => tx.rollback(),
        listen: (channel, callback) => tx.listen(channel, callback),
        get closed() {
          return tx.closed;
        },
      }),
    );
  }
}
