import { apiData, expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// 每日签到 in the console: an owner sets day 1's reward, a reader checks in and is paid it, the day's claims show in
// the table (China time); support reads the screen without changing it.

test('an owner sets the check-in rewards, a reader is paid them, and the day’s claims show', async ({
  page,
  operators,
  playwright,
}) => {
  await logIn(page, operators.owner);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('每日签到', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/checkin$/);
  const rewards = page.getByTestId('checkin-rewards');
  await expect(rewards.getByText('第 7 天', { exact: true })).toBeVisible();

  await rewards.getByLabel('第1天阅币').fill('8');
  await rewards.getByLabel('第1天阅读券').fill('1');
  await expect(rewards.getByText('8 阅币 + 1 张阅读券（7 天有效）')).toBeVisible();
  await page.getByRole('button', { name: /保存奖励/ }).click();
  await expect(page.getByText('签到奖励已保存')).toBeVisible();
  const saved = await apiData<{ days: { day: number; coins: number; tickets: number }[] }>(
    page,
    '/api/admin/checkin/rewards',
  );
  expect(saved.days[0]).toMatchObject({ day: 1, coins: 8, tickets: 1 });

  // A new reader checks in: paid day 1's reward.
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  await reader.post('/api/user/register');
  const claimed = await (await reader.post('/api/user/checkin/claim')).json();
  expect(claimed.data).toMatchObject({ claimed: true, streak: 1, reward: { coins: 8, tickets: 1 } });
  await reader.dispose();

  await page.reload();
  const claims = page.getByTestId('checkin-claims');
  await expect(claims).toContainText('北京时间');
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  const row = claims.locator('tr', { hasText: today });
  await expect(row).toBeVisible();
  expect(Number(await row.locator('td').nth(1).textContent())).toBeGreaterThanOrEqual(1);
  await shot(page, 'checkin');
});

test('support sees the rewards and the claims but cannot change them', async ({ page, operators }) => {
  await logIn(page, operators.support);
  await page.goto('/admin/checkin');
  const rewards = page.getByTestId('checkin-rewards');
  await expect(rewards.getByText('第 1 天', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /保存奖励/ })).toHaveCount(0);
  await expect(rewards.getByLabel('第1天阅币')).toBeDisabled();
  await expect(rewards.getByText('只有所有者和财务可以修改签到奖励。')).toBeVisible();
  await shot(page, 'checkin-support');
});
