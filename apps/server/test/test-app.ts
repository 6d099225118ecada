// A real app on a real test database (PGlite or PostgreSQL, per TEST_DB), with the demo library.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { demoDrawer, seedDemoLibrary } from '../src/seed/index.ts';
import { createTestDatabase } from './test-database.ts';
import { testLibrary } from './test-library.ts';

export async function createTestApp(
  opts: {
    seed?: boolean;
    env?: Record<string, string>;
    staticCacheMs?: number;
    /**
     * A database the caller opened and closes (several apps on one database, as several servers; an app
     * recreated on the same database, as a restart); by default a fresh one, closed with the app.
     */
    db?: Database;
    /** Fastify's logger (the access log among it): off by default. */
    logger?: Parameters<typeof buildApp>[0]['logger'];
  } = {},
) {
  const seed = opts.seed !== false;
  const database = opts.db
    ? { db: opts.db, close: async () => undefined }
    : await createTestDatabase({ demo: seed });
  if (seed && opts.db) await seedDemoLibrary(database.db, testLibrary());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, ...opts.env });
  // As main.ts does: the demo pictures are drawn when the demo library is on.
  const app = await buildApp({
    config,
    db: database.db,
    staticCacheMs: opts.staticCacheMs ?? 0,
    logger: opts.logger,
    demoDrawer: config.demoLibrary ? demoDrawer : undefined,
  });
  return {
    app,
    db: database.db,
    config,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** The `sid` cookie a response set, ready for a Cookie header. */
export function sessionCookie(res: { cookies: { name: string; value: string }[] }) {
  const sid = res.cookies.find((c) => c.name === 'sid');
  if (!sid) throw new Error('no session cookie in the response');
  return `sid=${sid.value}`;
}
