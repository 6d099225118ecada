import { rechargeOf } from './api.ts';
import { expect, test } from './fixtures.ts';
import { payAmount } from './pay.ts';
import { waitForVisitor } from './support.ts';

// The content security policy fits the app: no screen, and not the pay page with the cashier in its frame, has
// anything refused by it.
test('no screen breaks the content security policy', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|securitypolicyviolation/i.test(message.text())) refused.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`securitypolicyviolation ${e.violatedDirective} ${e.blockedURI}`),
    );
  });

  const first = await page.goto('/home');
  expect(first?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
  await waitForVisitor(page);
  for (const path of [
    '/home',
    '/book/1',
    '/book/1/catalog',
    '/book/read/1/1',
    '/category',
    '/shelf',
    '/search',
    '/user',
    '/purchase',
    '/user/find-account',
  ]) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }

  // The pay page framing the sandbox cashier, as app channels use it.
  const recharge = await rechargeOf(page);
  const pack = recharge.payConfigs.find((c) => c.type === 'coin');
  const channel = recharge.subTypes[0];
  if (!pack || !channel) throw new Error('the demo shop has a coin pack and a channel');
  const query = new URLSearchParams({
    payChannel: channel.subTypeCode,
    payPurpose: 'coin',
    rechargerAmount: String(payAmount(pack, channel)),
  });
  const order = (await (await page.request.post(`/api/pay/pay?${query}`)).json()).data;
  await page.goto(`/user/purchase/pay?goUrl=${encodeURIComponent(order.payUrl)}`);
  await expect(page.frameLocator('iframe.pay-frame').getByRole('button', { name: '确认支付' })).toBeVisible();

  expect(refused).toEqual([]);
});
