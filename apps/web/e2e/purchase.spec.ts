import type { Page } from '@playwright/test';
import type { PayConfig } from '@yueman/contract';
import { rechargeOf, userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { ORDER_NO, payAmount, waitForUser } from './pay.ts';
import { chinaDate, openAsVisitor, settledShot, shot, storedUser } from './support.ts';

// The recharge centre against the real server: its packs and channels are the demo seed's, its cashier is the
// sandbox gateway's own page, and the coins arrive by the sandbox's signed, asynchronous notification.

const ANDROID_SHELL_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/156.0.0.0 Mobile Safari/537.36 YuemanApp/1.0.0';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

const yuan = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** A new visitor on the recharge centre, once registration has finished. */
async function openRechargeCentre(page: Page, query = '') {
  await openAsVisitor(page, '/home');
  const asked = page.waitForRequest((r) => r.url().includes('/api/user/recharge?'));
  await page.goto(`/purchase${query}`);
  const request = await asked;
  await expect(page.locator('.pack').first()).toBeVisible();
  const appType = new URL(request.url()).searchParams.get('appType') ?? '';
  return { appType, recharge: await rechargeOf(page, appType) };
}

const packCard = (page: Page, pack: PayConfig) => page.getByTestId(`pack-${pack.id}`);

async function pickChannelAndConfirm(page: Page, channelCode: string) {
  await page.getByRole('button', { name: '立即充值' }).click();
  await page.getByTestId(`channel-${channelCode}`).click();
  await page.getByRole('dialog').getByRole('button', { name: '确认支付' }).click();
}

test('the recharge centre shows packs in yuan with the default chosen, channels grouped with 9.5折, and the 2-minute warning', async ({
  page,
}) => {
  const { appType, recharge } = await openRechargeCentre(page);
  expect(appType).toBe('wap_browser');
  await expect(page.locator('.top-bar')).toContainText('充值中心');
  await expect(page.getByTestId('purchase-balance')).toContainText(String(recharge.availableAmount));

  const coins = recharge.payConfigs.filter((p) => p.type === 'coin');
  const vips = recharge.payConfigs.filter((p) => p.type === 'vip');
  expect(coins.length).toBeGreaterThan(0);
  expect(vips.length).toBeGreaterThan(0);
  await expect(page.getByRole('radiogroup', { name: '充值阅币' }).getByRole('radio')).toHaveCount(
    coins.length,
  );
  await expect(page.getByRole('radiogroup', { name: '开通VIP' }).getByRole('radio')).toHaveCount(vips.length);
  for (const pack of recharge.payConfigs) {
    const card = packCard(page, pack);
    await expect(card).toContainText(pack.title);
    await expect(card).toContainText(pack.configDesc);
    await expect(card).toContainText(`¥${yuan(pack.amountLevel)}`);
    if (pack.presentCount > 0) await expect(card).toContainText(`送${pack.presentCount}阅币`);
    await expect(card.locator('.pack-recommend')).toHaveCount(pack.isRecommend === 'Y' ? 1 : 0);
    await expect(card).toHaveAttribute('aria-checked', pack.isDefault === 'Y' ? 'true' : 'false');
  }
  const chosen = recharge.payConfigs.find((p) => p.isDefault === 'Y');
  if (!chosen) throw new Error('the demo seed has a default pack');
  await expect(page.locator('.purchase-bar')).toContainText(`¥${yuan(chosen.amountLevel)}`);
  await shot(page, 'purchase-centre');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await shot(page, 'purchase-centre-bottom');
  await page.evaluate(() => window.scrollTo(0, 0));

  // Choosing another pack moves the selection and the price in the bar.
  const other = vips[vips.length - 1] as PayConfig;
  await packCard(page, other).click();
  await expect(packCard(page, other)).toHaveAttribute('aria-checked', 'true');
  await expect(packCard(page, chosen)).toHaveAttribute('aria-checked', 'false');
  await expect(page.locator('.purchase-bar')).toContainText(`¥${yuan(other.amountLevel)}`);
  await packCard(page, chosen).click();

  await page.getByRole('button', { name: '立即充值' }).click();
  const sheet = page.locator('.channel-sheet');
  await expect(sheet).toBeVisible();
  const groups = sheet.locator('.channel-group-title');
  const superiors = [...new Set(recharge.subTypes.map((s) => s.superiorCode))];
  const labels = { alipay: '支付宝', wechat_pay: '微信支付', bank: '银行卡' } as const;
  await expect(groups).toHaveText(
    (['alipay', 'wechat_pay', 'bank'] as const).filter((c) => superiors.includes(c)).map((c) => labels[c]),
  );
  for (const channel of recharge.subTypes) {
    const row = page.getByTestId(`channel-${channel.subTypeCode}`);
    await expect(row).toContainText(channel.subTypeDesc);
    const pays = payAmount(chosen, channel);
    if (channel.discount < 10) {
      await expect(row).toContainText(`${channel.discount}折`);
      await expect(row.locator('.channel-price')).toContainText(`¥${yuan(pays)}`);
    } else {
      await expect(row.locator('.channel-discount')).toHaveCount(0);
      await expect(row.locator('.channel-price')).toHaveText(`¥${yuan(chosen.amountLevel)}`);
    }
  }
  const wechat = recharge.subTypes.find((s) => s.discount === 9.5);
  if (!wechat) throw new Error('the demo seed has a 9.5折 channel');
  await expect(page.getByTestId(`channel-${wechat.subTypeCode}`)).toContainText('9.5折');
  await settledShot(page, 'purchase-channels');

  await page.getByTestId(`channel-${wechat.subTypeCode}`).click();
  const warning = page.getByRole('dialog').filter({ hasText: '2分钟' });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('请在2分钟内完成支付');
  await expect(warning).toContainText(`¥${yuan(payAmount(chosen, wechat))}`);
  await expect(sheet).toBeHidden();
  await settledShot(page, 'purchase-warning');
  await warning.getByRole('button', { name: '取消' }).click();
  await expect(warning).toBeHidden();
  await expect(page).toHaveURL(/\/purchase$/);
  expect(await page.evaluate(() => localStorage.getItem('ym-pay-visited'))).toBeNull();
});

test('a new visitor tops up coins through the sandbox cashier, comes back, confirms, and sees the coins on /user', async ({
  page,
}) => {
  const { recharge } = await openRechargeCentre(page);
  const pack = recharge.payConfigs.find((p) => p.isDefault === 'Y') as PayConfig;
  const channel = recharge.subTypes.find((s) => s.discount === 9.5);
  if (!channel) throw new Error('the demo seed has a 9.5折 channel');
  const before = recharge.availableAmount;
  const user = await userInfo(page);

  const apply = page.waitForRequest((r) => r.url().includes('/h5/pay/apply?'));
  await pickChannelAndConfirm(page, channel.subTypeCode);
  const q = new URL((await apply).url()).searchParams;
  const pays = payAmount(pack, channel);
  expect(Object.fromEntries(q)).toMatchObject({
    rechargerAmount: String(pays),
    payPurposeId: String(pack.id),
    payChannel: channel.subTypeCode,
    payPurpose: 'coin',
    userId: String(user.userId),
    branchId: '-2',
    appType: 'wap_browser',
    vueReturnUrl: '/user',
  });
  expect(q.get('fromDomain')).toBeTruthy();
  expect(q.get('dynamicApiUrl')).toMatch(/^https?:\/\//);

  // The sandbox gateway's own cashier, at the discounted amount.
  await expect(page.getByRole('button', { name: '确认支付' })).toBeVisible();
  await expect(page.locator('body')).toContainText(`¥${(pays / 100).toFixed(2)}`);
  await shot(page, 'purchase-sandbox-cashier');
  await page.getByRole('button', { name: '确认支付' }).click();

  // Back on /user: asked once whether the payment succeeded.
  await expect(page).toHaveURL(/\/user$/);
  const ask = page.getByRole('dialog').filter({ hasText: '您是否已完成支付？' });
  await expect(ask).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('ym-pay-visited'))).toBeNull();
  await settledShot(page, 'purchase-after-pay-ask');
  await ask.getByRole('button', { name: '已完成支付' }).click();
  const saved = page.getByRole('dialog').filter({ hasText: '请保存账号' });
  await expect(saved.getByTestId('after-pay-account-name')).toHaveText(user.account);
  const { password } = await storedUser(page);
  expect(password).toMatch(/^\S{12,}$/);
  await expect(saved.getByTestId('after-pay-password')).toHaveText(password);
  await expect(saved.getByRole('button', { name: '绑定手机' })).toBeVisible();
  // The order number to keep for find-account, once the notification has landed.
  await expect(saved.getByTestId('after-pay-order-no')).toHaveText(ORDER_NO, {
    timeout: 20_000,
  });
  await settledShot(page, 'purchase-after-pay-yes');
  await saved.getByRole('button', { name: '我已保存' }).click();
  await expect(saved).toBeHidden();

  // The credit (coins, bonus, and the first-recharge offer the demo gives a new reader) arrives by notification;
  // then the account centre shows it.
  const credited = before + pack.itemCount + pack.presentCount + (pack.firstPayBonus ?? 0);
  await waitForUser(page, (u) => u.avaliableAmount === credited);
  await page.reload();
  await expect(page.getByTestId('user-coins')).toHaveText(String(credited));
  // The flag was cleared: no second question.
  await expect(page.getByText('您是否已完成支付？')).toHaveCount(0);
  await shot(page, 'purchase-user-credited');
});

test('buying VIP from a book returns to the book, and /user then shows the VIP expiry', async ({ page }) => {
  const { recharge } = await openRechargeCentre(page, '?bookId=1');
  const vip = recharge.payConfigs.find((p) => p.type === 'vip') as PayConfig;
  const bank = recharge.subTypes.find((s) => s.superiorCode === 'bank');
  if (!bank) throw new Error('the demo seed has a bank channel');
  await packCard(page, vip).click();

  const apply = page.waitForRequest((r) => r.url().includes('/h5/pay/apply?'));
  await pickChannelAndConfirm(page, bank.subTypeCode);
  const q = new URL((await apply).url()).searchParams;
  expect(q.get('payPurpose')).toBe('vip');
  expect(q.get('vueReturnUrl')).toBe('/book/1');
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/book\/1$/);
  await expect(page.locator('.book-page, main').first()).toBeVisible();
  await expect(page.getByText('您是否已完成支付？')).toHaveCount(0);

  await waitForUser(page, (u) => u.vipType !== 'none' && u.vipEndDate !== '');
  const info = await userInfo(page);
  // itemCount days from now, in China time (the date part; the hour can cross midnight only at the edge).
  const expected = chinaDate(new Date(Date.now() + vip.itemCount * 86_400_000));
  expect(info.vipEndDate.slice(0, 10)).toBe(expected);

  // The question waits for /home or /user.
  await page.goto('/home');
  await page.getByRole('dialog').getByRole('button', { name: '已完成支付' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '我已保存' }).click();
  await page.goto('/user');
  await expect(page.getByTestId('user-vip')).toHaveText(info.vipEndDate);
  await expect(page.locator('.user-vip-badge')).toBeVisible();
  await shot(page, 'purchase-user-vip');
});

test('cancelling at the cashier comes back to /user, where 遇到问题 shows the Android browser steps', async ({
  page,
}) => {
  const { recharge } = await openRechargeCentre(page);
  const alipay = recharge.subTypes.find((s) => s.superiorCode === 'alipay');
  if (!alipay) throw new Error('the demo seed has an alipay channel');
  await pickChannelAndConfirm(page, alipay.subTypeCode);
  await page.getByRole('button', { name: '取消' }).click();
  await expect(page).toHaveURL(/\/user$/);
  const account = (await userInfo(page)).account;
  await page.getByRole('dialog').getByRole('button', { name: '遇到问题' }).click();
  const trouble = page.getByTestId('after-pay-trouble');
  await expect(trouble).toContainText('安卓浏览器');
  await expect(trouble).toContainText('账单');
  await expect(trouble).toContainText(account);
  await expect(trouble).toContainText('10:00-21:00');
  await settledShot(page, 'purchase-after-pay-no');
  await page.getByRole('dialog').getByRole('button', { name: '我知道了' }).click();
  await expect(trouble).toBeHidden();
  expect((await userInfo(page)).avaliableAmount).toBe(recharge.availableAmount);
});

test.describe('on an iPhone', () => {
  test.use({ userAgent: IPHONE_UA });
  test('遇到问题 shows the iOS steps', async ({ page }) => {
    await openAsVisitor(page, '/home');
    await page.evaluate(() => localStorage.setItem('ym-pay-visited', JSON.stringify({ at: Date.now() })));
    await page.goto('/user');
    await page.getByRole('dialog').getByRole('button', { name: '遇到问题' }).click();
    await expect(page.getByTestId('after-pay-trouble')).toContainText('iPhone');
    await expect(page.getByTestId('after-pay-trouble')).toContainText('Safari');
    await settledShot(page, 'purchase-after-pay-no-ios');
  });
});

test.describe('inside the Android app shell', () => {
  test.use({ userAgent: ANDROID_SHELL_UA });

  test('an app channel opens the cashier in the pay page, and paying lifts the app out of the frame', async ({
    page,
  }) => {
    const { appType, recharge } = await openRechargeCentre(page);
    expect(appType).toBe('shell');
    const channel = recharge.subTypes.find((s) => s.superiorCode === 'alipay');
    if (!channel) throw new Error('the demo seed has an alipay app channel');
    const pack = recharge.payConfigs.find((p) => p.isDefault === 'Y') as PayConfig;
    await pickChannelAndConfirm(page, channel.subTypeCode);
    await expect(page).toHaveURL(/\/user\/purchase\/pay\?goUrl=/);
    await expect(page.locator('.top-bar')).toContainText('支付');
    const cashier = page.frameLocator('iframe.pay-frame');
    await expect(cashier.getByRole('button', { name: '确认支付' })).toBeVisible();
    const box = await page.locator('iframe.pay-frame').boundingBox();
    expect(box?.height).toBeGreaterThan(600);
    await settledShot(page, 'purchase-pay-frame');

    await cashier.getByRole('button', { name: '确认支付' }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.locator('iframe')).toHaveCount(0);
    await page.getByRole('dialog').getByRole('button', { name: '遇到问题' }).click();
    await expect(page.getByTestId('after-pay-trouble')).toContainText('安卓客户端');
    await waitForUser(
      page,
      (u) => u.avaliableAmount === pack.itemCount + pack.presentCount + (pack.firstPayBonus ?? 0),
    );
  });

  test('with the shell bridge present, the order is handed to it instead', async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { YuemanShell: object }).YuemanShell = {
        pay(order: string, returnUrl: string) {
          (window as unknown as { handed: unknown }).handed = { order: JSON.parse(order), returnUrl };
        },
      };
    });
    const { recharge } = await openRechargeCentre(page, '?bookId=2&number=3');
    const channel = recharge.subTypes.find((s) => s.superiorCode === 'wechat_pay');
    if (!channel) throw new Error('the demo seed has a wechat app channel');
    await pickChannelAndConfirm(page, channel.subTypeCode);
    const handed = await page.waitForFunction(() => (window as unknown as { handed?: unknown }).handed);
    const { order, returnUrl } = (await handed.jsonValue()) as {
      order: { orderNo: string; payChannel: string; payUrl: string; payAmount: number };
      returnUrl: string;
    };
    expect(order.payChannel).toBe(channel.subTypeCode);
    expect(order.orderNo).toMatch(/^YM\d{8}/);
    expect(order.payUrl).toContain('/sandbox-pay/cashier/');
    expect(returnUrl).toBe(new URL('/book/read/2/3', page.url()).href);
    await expect(page).toHaveURL(/\/purchase\?bookId=2&number=3$/);
  });
});

test('the pay page refuses an address that is not ours', async ({ page }) => {
  for (const foreign of ['https://evil.example/pay', '//evil.example/pay', 'javascript:alert(1)']) {
    await page.goto(`/user/purchase/pay?goUrl=${encodeURIComponent(foreign)}`);
    await expect(page.getByRole('alert')).toContainText('支付地址无效');
    await expect(page.locator('iframe')).toHaveCount(0);
  }
  await shot(page, 'purchase-pay-refused');
  await page.goto('/user/purchase/pay');
  await expect(page.getByRole('alert')).toContainText('支付地址无效');
});
