import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
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

export interface OpenedDatabase {
  db: Database;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number; onPoolError?: (err: Error) => void }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory' };

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Opens the database and brings its schema up to date. The caller holds the data-dir lock for PGlite. */
export async function openDatabase(target: DatabaseTarget): Promise<OpenedDatabase> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // An idle connection that the server drops (restart, failover, admin termination) is reported here;
    // without a listener it would crash the process. The pool replaces the connection on next use.
    pool.on(
      'error',
      target.onPoolError ?? ((err) => console.error('PostgreSQL connection lost:', err.message)),
    );
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as Database, driver: 'postgres', close: () => pool.end() };
  }
  let client: PGlite;
  if (target.kind === 'pglite') {
    const dir = path.resolve(target.dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    client = await PGlite.create({ dataDir: dir });
  } else {
    client = await PGlite.create();
  }
  const db = drizzlePglite(client, { schema, casing: 'snake_case' });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Database, driver: 'pglite', close: () => client.close() };
}
