import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test as base, expect, type Page } from '@playwright/test';
import { dataDir, root } from './server-env.ts';

export { expect };

const run = promisify(execFile);

export type Role = 'owner' | 'editor' | 'finance' | 'support';
export interface Credentials {
  name: string;
  password: string;
}

/**
 * A console operator made as an operator is made in production: `npm run operator -- add NAME --role ROLE` beside
 * the running server (it goes through DATA_DIR/server.sock), which prints the generated password once.
 */
export async function addOperator(name: string, role: Role): Promise<Credentials> {
  const { stdout, stderr } = await run(
    'npm',
    ['run', '--silent', 'operator', '--', 'add', name, '--role', role],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      timeout: 120_000,
    },
  );
  const password = /password: (\S+)/.exec(`${stdout}\n${stderr}`)?.[1];
  if (!password) throw new Error(`npm run operator printed no password:\n${stdout}\n${stderr}`);
  return { name, password };
}

/** Signs in on the login page and waits for the console's frame. */
export async function logIn(page: Page, who: Credentials, path = '/admin/login') {
  await page.goto(path);
  await page.getByPlaceholder('用户名').fill(who.name);
  await page.getByPlaceholder('密码').fill(who.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByTestId('current-operator')).toContainText(who.name);
}

/** The `data` of a console GET, with the page's session. */
export async function apiData<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  const body = (await res.json()) as { result: boolean; msg: string; data: T };
  expect(body.result, `${url}: ${body.msg}`).toBe(true);
  return body.data;
}

/**
 * A full-page screenshot under e2e/screenshots (committed: people look at them), once the screen has settled:
 * no spinner, no skeleton, animations done. The window is made as tall as the page for it (the layout's menu and
 * header are fixed to the window: a scrolled capture would cut them off at the first screen's height).
 */
export async function shot(page: Page, name: string) {
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0);
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  // Finite animations only (a running import's progress bar shimmers for ever).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) =>
          a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  await page.waitForTimeout(300);
  await page.screenshot({ path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname });
  await page.setViewportSize(viewport);
}

interface WorkerFixtures {
  /** An owner and a support operator, made once per worker (names unique to the run). */
  operators: Record<'owner' | 'support', Credentials>;
}

export const test = base.extend<object, WorkerFixtures>({
  operators: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern
    async ({}, use, workerInfo) => {
      const suffix = `${Date.now().toString(36)}${workerInfo.workerIndex}`;
      const owner = await addOperator(`owner-${suffix}`, 'owner');
      const support = await addOperator(`support-${suffix}`, 'support');
      await use({ owner, support });
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});
