import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { openAsVisitor, settledShot } from './support.ts';

// Daily check-in on a phone, three China days running. The test moves the clock the way the server's tests do: the
// reader's earlier check-ins are moved one China day back while this spec's own server is stopped (the embedded
// database takes one process at a time), so "today" is the next day of the streak. No clock is writable by a client.

const port = ownPort(22);
const origin = `http://127.0.0.1:${port}`;
test.use({ baseURL: origin });

let server: OwnServer;
const dataDir = mkdtempSync(path.join(tmpdir(), 'yueman-e2e-checkin-'));
const start = async () => {
  server = await startOwnServer({ port, name: 'checkin', dataDir });
};

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A day passes: the reader's check-ins move one China day back, so today is the streak's next day. */
async function nextDay(userId: number) {
  await server.stop();
  const db = new PGlite({ dataDir: path.join(dataDir, 'pglite') });
  try {
    // Two steps: moving each row one day back in one statement could meet the next row's (user, day) key on the way.
    await db.exec(`
      update checkin_claims set day = day - 100000 where user_id = ${userId};
      update checkin_claims set day = day + 99999 where user_id = ${userId};`);
  } finally {
    await db.close();
  }
  await start();
}

test('a reader checks in three days running: the streak calendar, the reward, 已签到', async ({ page }) => {
  test.setTimeout(300_000);
  await start();
  const visitor = await openAsVisitor(page, '/home');
  const { userId } = visitor.userInfo;
  const card = page.getByRole('region', { name: '每日签到' });
  const button = page.getByTestId('checkin-button');

  for (let day = 1; day <= 3; day++) {
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
    if (day < 3) await nextDay(userId);
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
