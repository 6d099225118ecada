import { startRealGateways } from '../../server/test/fakes/real-gateways-env.ts';
import { rechargeOf, userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { ORDER_NO, waitForUser } from './pay.ts';
import { settledShot, shot, WECHAT, waitForVisitor } from './support.ts';

// Paying inside WeChat's own browser: a server of its own (the built one) with WeChat Pay and its official account's
// AppSecret set, pointing at the WeChat Pay fake, which also plays the official account's OAuth and, through the
// WeixinJSBridge a WeChat page has, WeChat's payment sheet (it checks the merchant's paySign before paying).

const port = ownPort(8);
const origin = `http://127.0.0.1:${port}`;

let gateways: Awaited<ReturnType<typeof startRealGateways>>;
let server: OwnServer | undefined;

test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  gateways = await startRealGateways();
  server = await startOwnServer({ port, name: 'jsapi', env: gateways.env });
});

test.afterAll(async () => {
  await server?.stop();
  await gateways?.close();
});

test('inside WeChat the reader pays with WeChat Pay (JSAPI) and comes back to the after-payment dialog', async ({
  device,
}) => {
  const page = await device(WECHAT);
  // WeChat's bridge: its payment sheet is WeChat's, played by the fake; it answers once the test has looked.
  let sheetSeen: () => void = () => undefined;
  const looked = new Promise<void>((resolve) => {
    sheetSeen = resolve;
  });
  await page.exposeFunction('wechatPaySheet', async (params: Record<string, unknown>) => {
    await looked;
    return gateways.wechatPay.bridgePay(params);
  });
  await page.addInitScript(() => {
    const w = window as unknown as {
      WeixinJSBridge: unknown;
      wechatPaySheet(p: unknown): Promise<unknown>;
    };
    w.WeixinJSBridge = {
      invoke(name: string, params: unknown, done: (res: unknown) => void) {
        if (name === 'getBrandWCPayRequest') void w.wechatPaySheet(params).then(done);
      },
    };
  });

  // Reading is still sent out to the browser; the prompt offers paying here.
  await page.goto('/home');
  await expect(page).toHaveURL(/\/open-in-browser/);
  await waitForVisitor(page);
  const payHere = page.getByRole('link', { name: '在微信内充值' });
  await expect(payHere).toBeVisible();
  await settledShot(page, 'wechat-open-in-browser-pay-here');
  await payHere.click();

  await expect(page).toHaveURL(`${origin}/purchase`);
  await expect(page.getByRole('note')).toContainText('微信内仅支持微信支付');
  const recharge = await rechargeOf(page);
  expect(recharge.subTypes.map((c) => c.superiorCode)).not.toContain('alipay');
  const pack = recharge.payConfigs.find((p) => p.isDefault === 'Y');
  const channel = recharge.subTypes.find((c) => c.subTypeCode === 'wechat_h5');
  if (!pack || !channel) throw new Error('the demo shop has a default pack and wechat_h5');
  const before = (await userInfo(page)).avaliableAmount;
  await settledShot(page, 'wechat-purchase');

  await page.getByRole('button', { name: '立即充值' }).click();
  await expect(page.getByTestId('channel-alipay_wap')).toHaveCount(0);
  await page.getByTestId('channel-wechat_h5').click();
  await page.getByRole('dialog').getByRole('button', { name: '确认支付' }).click();

  // Through the official account's OAuth (silent) to our JSAPI page, which hands the bridge the signed order.
  await expect(page).toHaveURL(new RegExp(`^${origin}/h5/pay/wechat/jsapi\\?orderNo=`));
  await expect(page.locator('[data-order-no]')).toHaveText(ORDER_NO);
  await expect(page.locator('.amount')).toHaveText(/¥\d+\.\d\d/);
  await shot(page, 'wechat-jsapi-page');
  sheetSeen();

  // WeChat says paid: back on the account centre, asked whether the payment went through.
  await expect(page).toHaveURL(`${origin}/user`, { timeout: 20_000 });
  const ask = page.getByRole('dialog').filter({ hasText: '您是否已完成支付？' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: '已完成支付' }).click();
  const saved = page.getByRole('dialog').filter({ hasText: '请保存账号' });
  await expect(saved.getByTestId('after-pay-order-no')).toHaveText(ORDER_NO, { timeout: 20_000 });
  await settledShot(page, 'wechat-after-pay');
  // A new reader's first paid order: the demo's first-recharge offer comes on top.
  await waitForUser(
    page,
    (u) => u.avaliableAmount === before + pack.itemCount + pack.presentCount + (pack.firstPayBonus ?? 0),
  );
  expect(gateways.wechatPay.bridgeCalls().map((c) => c.errMsg)).toEqual(['get_brand_wcpay_request:ok']);
});
