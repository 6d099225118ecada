import { defineConfig } from '@playwright/test';
import { chromiumArgs, headlessShellPath } from '../../scripts/chromium.mjs';
import { dataDir, port, root } from './e2e/server-env.ts';

// The console's browser tests: Debian's Chromium headless shell (no downloaded browser; scripts/chromium.mjs) at a
// desktop viewport against the real server, started on a fresh data directory with the demo library (as
// apps/web/playwright.config.ts). The specs create their operators with `npm run operator` against this server
// (e2e/operators.ts).

export default defineConfig({
  testDir: './e2e',
  outputDir: `../../.tmp/e2e-admin-results-${port}`,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time, a file's tests in order (as apps/web/playwright.config.ts): each spec signs in an
  // operator of its own, and one that looks at what another may change (the book list an import adds to) reads it
  // just before it asserts. Half the suite's time on 2 cores.
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    launchOptions: { executablePath: headlessShellPath, args: chromiumArgs },
  },
  webServer: {
    // What `npm start` runs: the built server (built first if a source is newer). Its log (pino JSON) goes to
    // .tmp/e2e-admin-server-<port>.log, to read when a spec fails.
    command: `mkdir -p .tmp && rm -rf ${dataDir} && node scripts/start.mjs > .tmp/e2e-admin-server-${port}.log`,
    cwd: root,
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 90_000,
    reuseExistingServer: false,
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REGISTER_PER_HOUR: '100000',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
