import type { Page } from '@playwright/test';
import { expect, logIn, shot, test } from './fixtures.ts';
import { phoneReader, screenshotPhone } from './readers-kit.ts';

// The console's packs and offers against the real server: an owner changes a pack's bonus and a reader's recharge
// centre (a phone, in a second browser context) shows it; the owner turns the first-recharge offer on and a new
// reader sees it and gets it with their first payment (the sandbox cashier, its signed notification).

const PACK_ID = 4; // the demo's 10000阅币 pack (¥100, 送2000阅币); other specs pay the default pack
const HOUR = 3_600_000;
/** An instant as the console types it: China time, 'YYYY-MM-DD HH:mm'. */
const chinaText = (at: number) => new Date(at + 8 * HOUR).toISOString().slice(0, 16).replace('T', ' ');

async function editPack(page: Page, fields: Record<string, string>) {
  await page.getByRole('button', { name: '编辑 10000阅币' }).click();
  const dialog = page.getByRole('dialog', { name: /编辑套餐/ });
  await expect(dialog).toBeVisible();
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label).fill(value);
  return dialog;
}

test('an owner changes a pack’s bonus and the first-recharge offer; a reader’s recharge centre follows, and a new reader gets the offer', async ({
  page,
  operators,
  browser,
}) => {
  await logIn(page, operators.owner);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('套餐与支付', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/packs$/);
  await expect(page.getByText('10000阅币').first()).toBeVisible();
  // The demo's own offer (its ad promises 新用户首充送 100 阅币), shown with its China-time window.
  await expect(page.getByRole('row', { name: /10000阅币/ })).toContainText('加赠 100 阅币');
  await expect(page.getByRole('row', { name: /10000阅币/ })).toContainText('北京时间');
  await shot(page, 'packs-console');

  const reader = await phoneReader(browser);
  const card = reader.page.getByTestId(`pack-${PACK_ID}`);
  await expect(card).toContainText('送2000阅币');
  await expect(card).toContainText('首充加赠 100 阅币');

  // The bonus goes up and the offer ends: the same reader's recharge centre shows both.
  const dialog = await editPack(page, {
    赠送阅币: '2500',
    说明: '充100元，加赠2500阅币',
    '首充加赠阅币（0 为不加赠）': '0',
  });
  await dialog.getByLabel('开始（北京时间）').clear();
  await dialog.getByLabel('结束（北京时间）').clear();
  await shot(page, 'packs-edit');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(/已保存，新订单生效/)).toBeVisible();
  await reader.page.reload();
  await expect(card).toContainText('送2500阅币');
  await expect(card).toContainText('充100元，加赠2500阅币');
  await expect(card.locator('.pack-first-pay')).toHaveCount(0);

  // The offer is turned on again (200 coins, from an hour ago to tomorrow, China time).
  const now = Date.now();
  const again = await editPack(page, {
    '首充加赠阅币（0 为不加赠）': '200',
    '开始（北京时间）': chinaText(now - HOUR),
    '结束（北京时间）': chinaText(now + 24 * HOUR),
  });
  await again.getByRole('button', { name: /保\s*存/ }).click();
  await expect(again).toHaveCount(0);
  await expect(page.getByRole('row', { name: /10000阅币/ })).toContainText('加赠 200 阅币');
  await expect(page.getByRole('row', { name: /10000阅币/ })).toContainText('进行中');
  await shot(page, 'packs-offer-on');

  // A new reader sees it, pays the pack through the sandbox cashier, and gets coins, bonus and offer.
  const newcomer = await phoneReader(browser);
  const offered = newcomer.page.getByTestId(`pack-${PACK_ID}`);
  await expect(offered).toContainText('送2500阅币');
  await expect(offered).toContainText('首充加赠 200 阅币');
  await screenshotPhone(newcomer.page, 'packs-recharge-centre-phone');
  await offered.click();
  await newcomer.page.getByRole('button', { name: '立即充值' }).click();
  await newcomer.page.getByTestId('channel-wechat_h5').click();
  await newcomer.page.getByRole('dialog').getByRole('button', { name: '确认支付' }).click();
  await expect(newcomer.page.getByRole('button', { name: '确认支付' })).toBeVisible();
  await newcomer.page.getByRole('button', { name: '确认支付' }).click();
  await expect
    .poll(
      async () => (await (await newcomer.page.request.get('/api/user/info')).json()).data?.avaliableAmount,
      { timeout: 30_000 },
    )
    .toBe(10000 + 2500 + 200);
  // Paid now: the offer is no longer shown to them.
  await newcomer.page.goto('/purchase');
  await expect(offered).toContainText('送2500阅币');
  await expect(offered.locator('.pack-first-pay')).toHaveCount(0);

  await reader.context.close();
  await newcomer.context.close();
});
