import { defineConfig } from 'vitest/config';

// `npm run test:cluster` (part of npm test): the scale-out on loopback, apps/server/test/cluster/. One file, its
// tests in order (they share one stack of PostgreSQL, pgbouncer, an S3 server, three servers and nginx).
export default defineConfig({
  test: {
    name: 'cluster',
    include: ['apps/server/test/cluster/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['apps/server/test/built-server.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 480_000,
  },
});
