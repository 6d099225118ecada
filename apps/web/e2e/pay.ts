import { expect, type Page } from '@playwright/test';
import type { PayConfig, PaySubType, UserInfo } from '@yueman/contract';
import { apiData, rechargeOf, userInfo } from './api.ts';
import { settledShot } from './support.ts';

// Payments through the real sandbox gateway: its cashier is its own page, and it notifies the server on its
// own, signed and a moment later, as a real gateway would.

/** The merchant order number: the cashier, the after-payment dialog and find-account show it. */
export const ORDER_NO = /^YM\d{8}[0-9A-F]{16}$/;

/** What a channel asks for a pack, in cents: the pack's price at the channel's discount (9.5折), rounded half up. */
export const payAmount = (pack: PayConfig, channel: PaySubType) =>
  Math.floor((pack.amountLevel * Math.round(channel.discount * 10) + 50) / 100);

/**
 * Polls the server until `done` holds for the user (the notification has been acknowledged). On failure it
 * says what the server last said of the user and of their last paid order: whether the payment was recorded.
 */
export async function waitForUser(page: Page, done: (user: UserInfo) => boolean) {
  await expect
    .poll(
      async () => {
        const user = await userInfo(page);
        if (done(user)) return 'done';
        return JSON.stringify({ user, lastPaid: await apiData(page.request, '/api/pay/last_paid_order') });
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe('done');
}

/**
 * Buys the first pack of a type on the first channel (支付宝, no discount) the way the recharge centre sends the
 * browser: pay apply (a navigation from our page, 302 to the sandbox cashier), the cashier's confirm button (302
 * back to /user), then waits for the credit. The pack and the order number the cashier shows; `screenshot`
 * names a picture of the cashier.
 */
export async function payInSandbox(page: Page, type: 'coin' | 'vip', screenshot?: string) {
  const recharge = await rechargeOf(page);
  const pack = recharge.payConfigs.find((c) => c.type === type);
  const channel = recharge.subTypes[0];
  if (!pack || !channel) throw new Error(`the demo shop has a ${type} pack and a channel`);
  const query = new URLSearchParams({
    rechargerAmount: String(payAmount(pack, channel)),
    payPurposeId: String(pack.id),
    payChannel: channel.subTypeCode,
    payPurpose: type,
    userId: String(recharge.userInfo.userId),
    appType: 'wap_browser',
    vueReturnUrl: '/user',
  });
  // Pay apply answers navigations from our own pages only, as the recharge centre makes them.
  const applied = page.waitForResponse((r) => r.url().includes('/h5/pay/apply?'));
  await page.evaluate((url) => window.location.assign(url), `/h5/pay/apply?${query}`);
  expect((await applied).status()).toBe(302);
  const confirm = page.getByRole('button', { name: '确认支付' });
  await expect(confirm).toBeVisible();
  // The cashier shows the merchant order number, which find-account asks for.
  const orderNo = (await page.locator('[data-order-no]').textContent()) ?? '';
  expect(orderNo).toMatch(ORDER_NO);
  if (screenshot) await settledShot(page, screenshot);
  const confirmed = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/confirm'),
  );
  await confirm.click();
  expect((await confirmed).status()).toBe(302);
  // Back on the site: the return address, or /home if the site's public origin is not the one browsed here. The test
  // goes on at once, as a reader may: leaving while the start-up calls run must not cost the session.
  await page.waitForURL(/\/(user|home)$/);

  const before = recharge.userInfo;
  await waitForUser(page, (u) =>
    type === 'coin'
      ? u.avaliableAmount ===
        before.avaliableAmount + pack.itemCount + pack.presentCount + (pack.firstPayBonus ?? 0)
      : u.vipEndDate !== before.vipEndDate,
  );
  /** `paid`: the cents the cashier took (find-account asks for it). */
  return { ...pack, orderNo, paid: payAmount(pack, channel) };
}
