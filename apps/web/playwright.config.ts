import { defineConfig } from '@playwright/test';
import { chromiumArgs, headlessShellPath } from '../../scripts/chromium.mjs';

// Browser tests drive Debian's Chromium headless shell (no downloaded browser; scripts/chromium.mjs) at a phone
// viewport against the real server, started on a fresh data directory with the demo library (ARCHITECTURE.md,
// convention 8).
const port = Number(process.env.E2E_PORT ?? 18900);
const root = new URL('../..', import.meta.url).pathname;

export default defineConfig({
  testDir: './e2e',
  // The demo data directory the specs' own servers start from a copy of (e2e/own-server.ts).
  globalSetup: './e2e/demo-data.ts',
  outputDir: `../../.tmp/e2e-results-${port}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two spec files at a time, each in a browser of its own, a file's tests in order: every test is a new visitor in
  // a new context and no reader spec changes what another reads (the ones that need other settings start servers of
  // their own, on ports of their own), so files are independent. A test waits on the server and the page much of the
  // time: two workers on 2 cores take about 30% off the suite's time.
  fullyParallel: false,
  workers: 2,
  // One retry in CI, reported as 'flaky' in the log: an account spec has twice waited 20 s in vain for a sandbox
  // payment's credit on a loaded machine (not reproduced since; see the issue note). A retry keeps one such
  // run from blocking a landing while it stays visible.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
    launchOptions: { executablePath: headlessShellPath, args: chromiumArgs },
  },
  webServer: {
    // What `npm start` runs: the built server (built first if a source is newer, as when `npm run e2e` runs alone).
    // The server's log (pino JSON) goes to .tmp/e2e-server-<port>.log, to read when a spec fails.
    command: `mkdir -p .tmp && rm -rf .tmp/e2e-data-${port} && node scripts/start.mjs > .tmp/e2e-server-${port}.log`,
    cwd: root,
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 90_000,
    reuseExistingServer: false,
    // Every browser context is a new visitor that registers; the per-address limit is for the public.
    env: {
      DATA_DIR: `.tmp/e2e-data-${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REGISTER_PER_HOUR: '100000',
      // The pay gateway returns the browser to PUBLIC_ORIGIN only: it must be the address the tests browse.
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
