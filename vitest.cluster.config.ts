import { defineConfig } from 'vitest/config';

// `npm run test:cluster` (part of npm test): the scale-out on loopback, apps/server/test/cluster/. One file, its
// tests in order (they share one stack of PostgreSQL, pgbouncer, an S3 server, three servers and nginx).
export default defineConfig({
  test: {
    // The AWS SDK warns on Node 20 that its releases from 2027 need Node 22: known (docs/decisions.md).
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    name: 'cluster',
    include: ['apps/server/test/cluster/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['apps/server/test/cluster/build.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 480_000,
  },
});
