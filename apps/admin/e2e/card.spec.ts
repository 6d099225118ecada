import { apiData, expect, logIn, shot, test } from './fixtures.ts';
import { sandboxPaidOrder } from './readers-kit.ts';
import { port } from './server-env.ts';

// 月卡 in the console: an owner sets the daily reward, a reader who bought the card through the sandbox claims and is
// paid it, the day's claims and the running cards show (China time); the card pack is on 套餐与支付; support reads
// the screen without changing it.

test('an owner sets the monthly card’s daily reward, a card holder is paid it, and the day’s claims show', async ({
  page,
  operators,
  playwright,
}) => {
  await logIn(page, operators.owner);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('月卡', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/card$/);
  const reward = page.getByTestId('card-reward');
  await expect(reward.getByLabel('每日阅币')).toHaveValue('20');

  await reward.getByLabel('每日阅币').fill('30');
  await reward.getByLabel('每日阅读券').fill('1');
  await expect(reward.getByText('30 阅币 + 1 张阅读券（7 天有效）')).toBeVisible();
  await page.getByRole('button', { name: /保存奖励/ }).click();
  await expect(page.getByText('月卡奖励已保存')).toBeVisible();
  const saved = await apiData<{ coins: number; tickets: number }>(page, '/api/admin/card/reward');
  expect(saved).toMatchObject({ coins: 30, tickets: 1 });

  // A new reader buys the card and claims today's reward: paid what was just set.
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  await sandboxPaidOrder(reader, { type: 'card' });
  await expect
    .poll(async () => (await (await reader.get('/api/user/card')).json()).data.active, { timeout: 30_000 })
    .toBe(true);
  const claimed = await (await reader.post('/api/user/card/claim')).json();
  expect(claimed.data).toMatchObject({ claimed: true, daysLeft: 30, reward: { coins: 30, tickets: 1 } });
  await reader.dispose();

  await page.reload();
  const claims = page.getByTestId('card-claims');
  await expect(claims).toContainText('北京时间');
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  const row = claims.locator('tr', { hasText: today });
  await expect(row).toBeVisible();
  expect(Number(await row.locator('td').nth(1).textContent())).toBeGreaterThanOrEqual(1);
  expect(Number(await row.locator('td').nth(2).textContent())).toBeGreaterThanOrEqual(30);
  await expect(claims.locator('.ant-statistic-content-value')).not.toHaveText('0');
  await shot(page, 'card');

  // The card pack is edited with the other packs.
  await menu.getByText('套餐与支付', { exact: true }).click();
  const packs = page.locator('.ant-card', { hasText: '月卡套餐' });
  await expect(packs.locator('tr', { hasText: '30天每日领取阅币' })).toContainText('¥25.00');
  await shot(page, 'card-packs');

  // Back to the starting reward for the other specs on this server.
  await menu.getByText('月卡', { exact: true }).click();
  await reward.getByLabel('每日阅币').fill('20');
  await reward.getByLabel('每日阅读券').fill('0');
  await page.getByRole('button', { name: /保存奖励/ }).click();
  await expect(page.getByText('月卡奖励已保存')).toBeVisible();
  expect(await apiData(page, '/api/admin/card/reward')).toMatchObject({ coins: 20, tickets: 0 });
});

test('support sees the card’s reward and claims but cannot change them', async ({ page, operators }) => {
  await logIn(page, operators.support);
  await page.goto('/admin/card');
  const reward = page.getByTestId('card-reward');
  await expect(reward.getByLabel('每日阅币')).toBeDisabled();
  await expect(page.getByRole('button', { name: /保存奖励/ })).toHaveCount(0);
  await expect(reward.getByText('只有所有者和财务可以修改月卡奖励。')).toBeVisible();
});
