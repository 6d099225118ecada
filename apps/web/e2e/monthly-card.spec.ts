import type { PayConfig } from '@yueman/contract';
import { apiData, rechargeOf } from './api.ts';
import { expect, test } from './fixtures.ts';
import { payAmount } from './pay.ts';
import { openAsVisitor, settledShot, shot } from './support.ts';

// The monthly card (月卡) on a phone against the real server: the account centre's line to buy one, the card pack in
// the recharge centre, the sandbox gateway's own cashier and its signed notification, then today's claim: 剩余30天
// and 领取, then 今日已领取 with the reward on the balance, on this device and after a reload.

test('a reader buys the card with the sandbox cashier and claims today’s reward: 剩余30天, 领取 → 今日已领取', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openAsVisitor(page, '/user');
  const buy = page.getByTestId('card-buy');
  await expect(buy).toContainText('开通后30天每天可领 20阅币');
  await settledShot(page, 'card-none');
  await buy.click();

  // The recharge centre opens with the card picked, under its own heading.
  await expect(page).toHaveURL(/\/purchase\?pack=card$/);
  const recharge = await rechargeOf(page, 'wap_browser');
  const card = recharge.payConfigs.find((p) => p.type === 'card') as PayConfig;
  const group = page.getByRole('radiogroup', { name: '月卡 · 每日领取' });
  const pack = group.getByTestId(`pack-${card.id}`);
  await expect(pack).toHaveAttribute('aria-checked', 'true');
  await expect(pack).toContainText('月卡');
  await expect(pack).toContainText('30天每日领取');
  await expect(pack).toContainText('¥25');
  await expect(page.locator('.purchase-bar')).toContainText('月卡¥25');
  await pack.scrollIntoViewIfNeeded();
  await settledShot(page, 'card-purchase');

  // Pay through the first channel (支付宝, no discount) at the sandbox's cashier.
  const channel = recharge.subTypes[0];
  if (!channel) throw new Error('the demo shop has a channel');
  const apply = page.waitForRequest((r) => r.url().includes('/h5/pay/apply?'));
  await page.getByRole('button', { name: '立即充值' }).click();
  await page.getByTestId(`channel-${channel.subTypeCode}`).click();
  await page.getByRole('dialog').getByRole('button', { name: '确认支付' }).click();
  const q = new URL((await apply).url()).searchParams;
  expect(q.get('payPurpose')).toBe('card');
  expect(q.get('rechargerAmount')).toBe(String(payAmount(card, channel)));
  await expect(page.locator('body')).toContainText(`¥${(payAmount(card, channel) / 100).toFixed(2)}`);
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/user$/);
  const ask = page.getByRole('dialog').filter({ hasText: '您是否已完成支付？' });
  await ask.getByRole('button', { name: '已完成支付' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '我已保存' }).click();

  // The card arrives with the notification: 剩余30天 and 领取.
  await expect
    .poll(async () => (await apiData<{ active: boolean }>(page.request, '/api/user/card')).active, {
      timeout: 60_000,
    })
    .toBe(true);
  await page.reload();
  const panel = page.getByRole('region', { name: '月卡' });
  await expect(page.getByTestId('card-days')).toHaveText('剩余30天');
  await expect(panel).toContainText('每日可领 20阅币');
  const claim = page.getByTestId('card-claim');
  await expect(claim).toHaveText('领取');
  await expect(claim).toBeEnabled();
  await settledShot(page, 'card-to-claim');

  const coins = Number(await page.getByTestId('user-coins').textContent());
  await claim.click();
  await expect(page.locator('.adm-toast-main')).toContainText('领取成功，获得20阅币');
  await expect(claim).toHaveText('今日已领取');
  await expect(claim).toBeDisabled();
  await expect(page.getByTestId('card-days')).toHaveText('剩余30天');
  await expect(page.getByTestId('user-coins')).toHaveText(String(coins + 20));
  await settledShot(page, 'card-claimed');
  await page.reload();
  await expect(page.getByTestId('card-claim')).toHaveText('今日已领取');

  // The panel fits a 360 px wide phone.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(panel).toBeVisible();
  const box = await panel.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await panel.scrollIntoViewIfNeeded();
  await shot(page, 'card-360');
});
