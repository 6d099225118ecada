import { defineConfig } from 'vitest/config';

// Every server test runs twice: on embedded PGlite and on a real PostgreSQL 15 cluster (test/pg-cluster.ts).
// Tests get their database from apps/server/test/test-database.ts, which reads TEST_DB.
const serverTests = ['apps/server/**/*.test.ts'];
// The cluster test starts its own PostgreSQL, pgbouncer, S3 server, servers and nginx: vitest.cluster.config.ts.
const notCluster = ['apps/server/test/cluster/**', '**/node_modules/**'];

export default defineConfig({
  test: {
    // The machines have 2 cores; both projects share this pool of workers.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A worker runs its test files one after another in one process: the server's modules (Fastify, PGlite's WASM,
    // sharp) load once per worker, not once per file, which was a third of a run's time. Tests share no state
    // through modules: each builds its own app on its own database (test-app.ts, test-database.ts).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'server-pglite',
          include: serverTests,
          exclude: notCluster,
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          globalSetup: ['apps/server/test/built-server.ts', 'apps/server/test/pglite-templates.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server-postgres',
          include: serverTests,
          exclude: notCluster,
          environment: 'node',
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/built-server.ts', 'apps/server/test/pg-cluster.ts'],
        },
      },
      // The web app's pure rules (addresses, amounts, user agents, cover decryption): no DOM needed. Component
      // tests would want jsdom (a devDependency to add) and @vitejs/plugin-react in a project of their own.
      { extends: true, test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
