import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CheckinState } from '@yueman/contract';
import { apiData, userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { openAsVisitor, settledShot } from './support.ts';

// Daily check-in on a phone, three China days running, with the server's clock set by the test: its own server runs
// one day further ahead at each restart (server-clock.ts, loaded into that process only: no client and no setting
// of a deployed server can move a clock), so "today" is the streak's next day, as a day passing would make it.

const port = ownPort(22);
const origin = `http://127.0.0.1:${port}`;
test.use({ baseURL: origin });

const DAY_MS = 86_400_000;
let server: OwnServer | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'yueman-e2e-checkin-'));
/** The server on the same data, its clock `day - 1` days ahead of the machine's (day 1: the machine's own). */
const startOnDay = async (day: number) => {
  await server?.stop();
  server = await startOwnServer({ port, name: 'checkin', dataDir, clockAheadMs: (day - 1) * DAY_MS });
};

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The day after a China date (yyyy-mm-dd). */
const nextDate = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

test('a reader checks in three days running: the streak calendar, the reward, 已签到', async ({ page }) => {
  test.setTimeout(300_000);
  await startOnDay(1);
  await openAsVisitor(page, '/home');
  const card = page.getByRole('region', { name: '每日签到' });
  const button = page.getByTestId('checkin-button');

  let today = '';
  for (let day = 1; day <= 3; day++) {
    // The server's China day: the day after the last one, from day 2 on.
    const state = await apiData<CheckinState>(page.request, '/api/user/checkin');
    if (day > 1) expect(state.today).toBe(nextDate(today));
    today = state.today;
    await page.goto('/user');
    await expect(card).toBeVisible();
    await expect(card.locator('[aria-current="date"]')).toContainText('今天');
    await expect(button).toBeEnabled();
    await expect(button).toHaveText(day === 3 ? '签到领取 10阅币' : '签到领取 5阅币');
    if (day === 1) {
      await expect(page.getByTestId('checkin-streak')).toHaveText('连续签到领更多奖励');
      await settledShot(page, 'checkin-before');
    } else {
      await expect(page.getByTestId('checkin-streak')).toHaveText(`已连续签到 ${day - 1} 天`);
    }
    await button.click();
    await expect(page.locator('.adm-toast-main')).toContainText('签到成功');
    await expect(button).toHaveText('已签到');
    await expect(button).toBeDisabled();
    await expect(page.getByTestId('checkin-streak')).toHaveText(`已连续签到 ${day} 天`);
    await expect(card.locator('.checkin-day.is-claimed')).toHaveCount(day - 1);
    if (day === 3) await settledShot(page, 'checkin-day3');
    if (day < 3) await startOnDay(day + 1);
  }

  // 5 + 5 + 10 coins, on the account (not the device): the balance says so, and a reload still says 已签到.
  await expect(page.getByTestId('user-coins')).toHaveText('20');
  expect((await userInfo(page)).avaliableAmount).toBe(20);
  await page.reload();
  await expect(button).toHaveText('已签到');

  // The calendar fits a 360 px wide phone: nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(card).toBeVisible();
  const box = await card.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await card.scrollIntoViewIfNeeded();
  await settledShot(page, 'checkin-360');
});
