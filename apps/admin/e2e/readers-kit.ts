import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { port } from './server-env.ts';

// Readers for the console's browser tests: one that pays a coin pack through the sandbox gateway as the reader app
// does (pay apply, the cashier's confirm, the sandbox's signed notification), and one on a phone in a browser context
// of its own (the reader app registers them on their first visit).

const dataOf = async <T>(res: { json(): Promise<unknown> }) => ((await res.json()) as { data: T }).data;

interface Recharge {
  payConfigs: {
    id: number;
    type: 'coin' | 'vip' | 'card';
    amountLevel: number;
    itemCount: number;
    presentCount: number;
    firstPayBonus?: number;
  }[];
  subTypes: { subTypeCode: string; discount: number }[];
}

/**
 * A new reader (its session kept by `reader`) pays the first coin pack (or monthly card: `type`) through the sandbox (支付宝 channel) and
 * waits for the credit. With `firstVisit`, the visit is marked first, as the reader app does (a promotion branch's
 * funnel counts it). Answers the order number, what was paid, and the coins it brought (the first-recharge offer
 * included: a new reader's first paid order).
 */
export async function sandboxPaidOrder(
  reader: APIRequestContext,
  { firstVisit = false, type = 'coin' as 'coin' | 'card' } = {},
) {
  if (firstVisit) expect((await reader.post('/api/user/user_from_mark')).ok()).toBe(true);
  expect((await reader.post('/api/user/register')).ok()).toBe(true);
  const recharge = await dataOf<Recharge>(await reader.get('/api/user/recharge?appType=wap_browser'));
  const pack = recharge.payConfigs.find((c) => c.type === type);
  const sub = recharge.subTypes.find((s) => s.subTypeCode === 'alipay_wap');
  if (!pack || !sub) throw new Error(`the demo shop has a ${type} pack and the channel alipay_wap`);
  const amount = Math.floor((pack.amountLevel * Math.round(sub.discount * 10) + 50) / 100);
  const query = new URLSearchParams({
    rechargerAmount: String(amount),
    payPurposeId: String(pack.id),
    payChannel: 'alipay_wap',
    payPurpose: type,
    appType: 'wap_browser',
    vueReturnUrl: '/user',
  });
  const applied = await reader.get(`/h5/pay/apply?${query}`, { maxRedirects: 0 });
  expect(applied.status(), await applied.text()).toBe(302);
  const cashier = new URL(applied.headers().location ?? '').pathname;
  const page = await (await reader.get(cashier)).text();
  const orderNo = /data-order-no>([A-Z0-9]+)</.exec(page)?.[1];
  if (!orderNo) throw new Error('the cashier shows no order number');
  expect((await reader.post(`${cashier}/confirm`, { maxRedirects: 0 })).status()).toBe(302);
  await expect
    .poll(
      async () =>
        (await dataOf<{ orderNo: string } | null>(await reader.get('/api/pay/last_paid_order')))?.orderNo,
      { timeout: 30_000 },
    )
    .toBe(orderNo);
  return { orderNo, amount, coins: pack.itemCount + pack.presentCount + (pack.firstPayBonus ?? 0) };
}

/** A new reader on a phone: the app registers them on their first visit; then the recharge centre. */
export async function phoneReader(browser: Browser) {
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    // A phone's browser (a desktop one is shown the QR code page), as apps/web/playwright.config.ts.
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  });
  const page = await context.newPage();
  await page.goto('/home');
  await page.waitForFunction(() => {
    const raw = localStorage.getItem('ym-user');
    return raw !== null && JSON.parse(raw).state?.userInfo?.userId > 0;
  });
  await page.goto('/purchase');
  await expect(page.locator('.pack').first()).toBeVisible();
  return { context, page };
}

/** A phone screen's screenshot under e2e/screenshots, once it has settled. */
export async function screenshotPhone(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname });
}
