import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { waitForVisitor } from './support.ts';

// Updating the app never serves a stale shell (docs/decisions.md, "Offline re-reading"). A server of its own (the
// built one, as npm start runs it) is restarted on the same port and data with a new build each time: build A,
// then B (a new file in its precache and its shell, a new sw.js), then C. Each build's index.html carries a marker.

const root = new URL('../../..', import.meta.url).pathname;
const port = ownPort(9);
const origin = `http://127.0.0.1:${port}`;

let server: OwnServer | undefined;
let work: string;

test.use({ baseURL: origin });

/** A copy of the built web app as deploy `name`: its marker in index.html, a byte of its own in sw.js. */
function build(name: string, extraFile?: string): string {
  const dist = path.join(work, name);
  cpSync(path.join(root, 'apps/web/dist'), dist, { recursive: true });
  const index = path.join(dist, 'index.html');
  let html = readFileSync(index, 'utf8').replace('<head>', `<head><meta name="ym-build" content="${name}">`);
  let sw = `${readFileSync(path.join(dist, 'sw.js'), 'utf8')}\n// build ${name}\n`;
  if (extraFile) {
    // A file only this build has, named by its shell and in its precache, as a deploy's new chunk is.
    writeFileSync(path.join(dist, 'assets', extraFile), `export const build = '${name}';\n`);
    html = html.replace(
      '</head>',
      `<link rel="modulepreload" crossorigin href="/assets/${extraFile}"></head>`,
    );
    sw = sw.replace('{"revision":null,"url":"assets/', `{"revision":null,"url":"assets/${extraFile}"},$&`);
    expect(sw).toContain(`"url":"assets/${extraFile}"`);
  }
  writeFileSync(index, html);
  writeFileSync(path.join(dist, 'sw.js'), sw);
  return dist;
}

/** The web app built to withdraw its worker (VITE_WITHDRAW_SERVICE_WORKER, docs/operations.md). */
function withdrawingBuild(): string {
  const dist = path.join(work, 'withdrawn');
  const built = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      dist,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    {
      cwd: path.join(root, 'apps/web'),
      env: { ...process.env, VITE_WITHDRAW_SERVICE_WORKER: 'true' },
      encoding: 'utf8',
    },
  );
  expect(built.status, built.stderr).toBe(0);
  expect(readFileSync(path.join(dist, 'sw.js'), 'utf8')).toContain('unregister');
  return dist;
}

async function stopServer() {
  const running = server;
  server = undefined;
  await running?.stop();
}

/** Serves `webDist` on the port (a deploy: the old server stops, the new one starts on the same data). */
async function deploy(webDist: string) {
  await stopServer();
  server = await startOwnServer({
    port,
    name: 'update',
    dataDir: path.join(work, 'data'),
    env: { WEB_DIST: webDist, DRAIN_SECONDS: '1' },
  });
}

test.beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'yueman-e2e-update-'));
});

test.afterAll(async () => {
  await stopServer();
  if (work) rmSync(work, { recursive: true, force: true });
});

const marker = (page: Page) => page.locator('meta[name="ym-build"]').getAttribute('content');

/** The worker of the build whose precache holds `file` is installed. */
const workerOfBuild = (page: Page, file: string) =>
  expect
    .poll(() => page.evaluate(async (url) => !!(await caches.match(url)), `/assets/${file}`), {
      timeout: 30_000,
    })
    .toBe(true);

/** The builds whose shells are kept for offline starts (one per build, the others' dropped on activation). */
const keptShells = (page: Page) =>
  page.evaluate(async () => {
    const cache = await caches.open('ym-shell');
    const builds: string[] = [];
    for (const request of await cache.keys()) {
      const html = (await (await cache.match(request))?.text()) ?? '';
      builds.push(/name="ym-build" content="(\w+)"/.exec(html)?.[1] ?? '?');
    }
    return builds;
  });

test('after an update, the next navigation and every reload get the new shell, online and offline', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const a = build('A');
  const b = build('B', 'update-marker-b.js');
  const c = build('C', 'update-marker-c.js');

  await deploy(a);
  await page.goto('/home');
  await waitForVisitor(page);
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30_000 });
  expect(await marker(page)).toBe('A');
  await expect.poll(() => keptShells(page)).toEqual(['A']);
  // A's worker has finished activating (it claims the page during its activation) before B is deployed.
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state))
    .toBe('activated');
  await page.evaluate(() => {
    const w = window as Window & { ymTakeovers?: number };
    w.ymTakeovers = 0;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      w.ymTakeovers = (w.ymTakeovers ?? 0) + 1;
    });
  });

  // Deploy B while the page of A stays open: its worker finds B's and B's takes over the page...
  await deploy(b);
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  await page.waitForFunction(() => ((window as Window & { ymTakeovers?: number }).ymTakeovers ?? 0) > 0);
  await workerOfBuild(page, 'update-marker-b.js');
  await expect.poll(() => keptShells(page)).toEqual(['B']);
  // ...and the next navigation in the app is a full load of B's shell and code, not A's code on B's worker.
  await page.locator('.tab-bar').getByText('书架').click();
  await expect(page).toHaveURL(/\/shelf$/);
  await expect.poll(() => marker(page)).toBe('B');
  expect(
    await page.evaluate(() => (window as Window & { ymTakeovers?: number }).ymTakeovers),
  ).toBeUndefined();
  await expect(page.getByRole('tab', { name: '我的收藏' })).toBeVisible();

  // Deploy C: the very next reload, answered by B's worker before C's is even installed, is C's shell.
  await deploy(c);
  await page.reload();
  expect(await marker(page)).toBe('C');
  await expect(page.getByRole('tab', { name: '我的收藏' })).toBeVisible();
  await workerOfBuild(page, 'update-marker-c.js');
  await expect.poll(() => keptShells(page)).toEqual(['C']);
  // B's own file left the precache with B.
  await expect
    .poll(() => page.evaluate(async () => !!(await caches.match('/assets/update-marker-b.js'))))
    .toBe(false);

  // Offline, the kept shell is C's, and C's code runs from the precache.
  await context.setOffline(true);
  await page.reload();
  expect(await marker(page)).toBe('C');
  await expect(page.getByRole('tab', { name: '我的收藏' })).toBeVisible();
  await page.goto('/home');
  expect(await marker(page)).toBe('C');
  await context.setOffline(false);
});

/** What `asked` answers, or undefined while the page is reloading (the withdrawing worker reloads it by design). */
const acrossReload = <T>(asked: Promise<T>) =>
  asked.catch((err: unknown) => {
    if (/Execution context was destroyed|navigat/i.test(String(err))) return undefined;
    throw err;
  });

test('a build that withdraws the worker removes it and its caches from the reader’s browser', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await deploy(build('A'));
  await page.goto('/home');
  await waitForVisitor(page);
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30_000 });
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBeGreaterThan(1);

  await deploy(withdrawingBuild());
  await page.reload();
  // The browser's update check finds the withdrawing sw.js: it unregisters, empties the caches, reloads the page.
  await expect
    .poll(
      () =>
        acrossReload(page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)),
      { timeout: 30_000 },
    )
    .toBe(0);
  await expect.poll(() => acrossReload(page.evaluate(async () => (await caches.keys()).length))).toBe(0);
  await page.reload();
  await expect(page.getByTestId('home-recommend').locator('.cover img').first()).toBeVisible();
  // Its page registers none again.
  await page.waitForTimeout(6000);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
});
