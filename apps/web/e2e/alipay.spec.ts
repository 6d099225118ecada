import { makeAlipayKeys, startAlipayFake } from '../../server/test/fakes/alipay-fake.ts';
import { rechargeOf, userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { ORDER_NO, waitForUser } from './pay.ts';
import { openAsVisitor, settledShot, shot } from './support.ts';

// The recharge centre with Alipay configured: a server of its own (the built one, as npm start runs it) with
// ALIPAY_* pointing at the Alipay fake on loopback, which signs and notifies as Alipay does. The reader goes to
// Alipay's cashier, pays, comes back, and the after-payment dialog shows the order; the coins arrive by Alipay's
// notification.

const port = ownPort(7);
const origin = `http://127.0.0.1:${port}`;

let fake: Awaited<ReturnType<typeof startAlipayFake>>;
let server: OwnServer | undefined;

test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const keys = makeAlipayKeys();
  fake = await startAlipayFake({
    appId: '2021000000000001',
    appPublicKey: keys.app.publicKey,
    alipayKeys: keys.alipay,
  });
  server = await startOwnServer({
    port,
    name: 'alipay',
    env: {
      ALIPAY_APP_ID: fake.appId,
      ALIPAY_PRIVATE_KEY: keys.app.privateKey,
      ALIPAY_PUBLIC_KEY: fake.alipayPublicKey,
      ALIPAY_GATEWAY: fake.gateway,
      ALIPAY_SELLER_ID: fake.sellerId,
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

test('with Alipay configured, the reader pays at Alipay’s cashier and comes back to the after-payment dialog', async ({
  page,
}) => {
  await openAsVisitor(page, '/home');
  await page.goto('/purchase');
  await expect(page.locator('.pack').first()).toBeVisible();
  const recharge = await rechargeOf(page);
  const pack = recharge.payConfigs.find((p) => p.isDefault === 'Y');
  if (!pack) throw new Error('the demo shop has a default pack');
  const before = (await userInfo(page)).avaliableAmount;

  await page.getByRole('button', { name: '立即充值' }).click();
  await page.getByTestId('channel-alipay_wap').click();
  await page.getByRole('dialog').getByRole('button', { name: '确认支付' }).click();

  // Alipay's cashier (the fake's page on its own origin), at the pack's price.
  await expect(page).toHaveURL(new RegExp(`^${fake.gateway}\\?`));
  await expect(page.locator('body')).toContainText(`¥${(pack.amountLevel / 100).toFixed(2)}`);
  await shot(page, 'alipay-cashier');
  await page.getByRole('button', { name: '确认付款' }).click();

  // Back on our page: asked whether the payment went through; the order number arrives with the notification.
  await expect(page).toHaveURL(new RegExp(`^${origin}/user`));
  const ask = page.getByRole('dialog').filter({ hasText: '您是否已完成支付？' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: '已完成支付' }).click();
  const saved = page.getByRole('dialog').filter({ hasText: '请保存账号' });
  await expect(saved.getByTestId('after-pay-order-no')).toHaveText(ORDER_NO, { timeout: 20_000 });
  await settledShot(page, 'alipay-after-pay');
  await waitForUser(
    page,
    (u) => u.avaliableAmount === before + pack.itemCount + pack.presentCount + (pack.firstPayBonus ?? 0),
  );
});
