import { expect, test } from './fixtures.ts';
import { settledShot, WECHAT } from './support.ts';

// Inside WeChat's own browser with the sandbox gateway (the demo's): the recharge centre says 微信内仅支持微信支付, and
// its channel sheet offers only WeChat Pay, since WeChat's browser opens neither Alipay's nor a bank's cashier (the
// server decides: sandbox/sandbox-clients.test.ts).
test('inside WeChat the channel sheet offers only WeChat Pay, as the note says', async ({ device }) => {
  const page = await device(WECHAT);
  await page.goto('/purchase');
  await expect(page.locator('.pack').first()).toBeVisible();
  await expect(page.getByRole('note')).toContainText('微信内仅支持微信支付');
  await page.getByRole('button', { name: '立即充值' }).click();
  const sheet = page.locator('.channel-sheet');
  await expect(sheet).toBeVisible();
  await expect(sheet.locator('.channel-group-title')).toHaveText(['微信支付']);
  await expect(sheet.getByTestId(/^channel-/)).toHaveCount(1);
  await expect(sheet).not.toContainText('支付宝');
  await expect(sheet).not.toContainText('银行卡');
  await settledShot(page, 'purchase-channels-wechat');
});
