import { sql } from 'drizzle-orm';
import { pgliteOf } from '../../db/backup.ts';
import type { Database } from '../../db/client.ts';
import type { PoolStats } from './metrics.instruments.ts';

/** The counts a `pg` Pool keeps (drizzle's node-postgres driver holds its pool as `$client`; PGlite has none). */
interface PgPoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

const isPgPool = (client: unknown): client is PgPoolLike =>
  typeof client === 'object' &&
  client !== null &&
  typeof (client as PgPoolLike).totalCount === 'number' &&
  typeof (client as PgPoolLike).waitingCount === 'number';

export function createMetricsRepository(db: Database) {
  const client: unknown = (db as { $client?: unknown }).$client;
  const pool = isPgPool(client) ? client : undefined;
  const pglite = pgliteOf(db);
  return {
    /**
     * The embedded database's WebAssembly memory (PGlite's Emscripten module, a public getter): it grows as
     * PostgreSQL uses memory and is never handed back; undefined on PostgreSQL.
     */
    databaseWasmBytes: pglite ? (): number => pglite.Module.HEAPU8.byteLength : undefined,
    /** One round trip: the database answers. */
    async ping(): Promise<void> {
      await db.execute(sql`select 1`);
    },
    /** The PostgreSQL pool's connections now; undefined on the embedded database. */
    poolStats: pool
      ? (): PoolStats => ({
          total: pool.totalCount,
          idle: pool.idleCount,
          waiting: pool.waitingCount,
          max: pool.options?.max ?? 0,
        })
      : undefined,
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
