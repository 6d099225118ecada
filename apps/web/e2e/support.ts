import type { Page } from '@playwright/test';

/** Saves a screenshot of the screen under e2e/screenshots (not committed) for a person to look at. */
export async function shot(page: Page, name: string) {
  await page.screenshot({
    path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname,
    fullPage: false,
  });
}

/** Waits until the app has registered the visitor (local storage holds the user). */
export async function waitForVisitor(page: Page) {
  await page.waitForFunction(() => {
    const raw = localStorage.getItem('ym-user');
    return raw !== null && JSON.parse(raw).state?.userInfo?.userId > 0;
  });
}

export const PC_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
export const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36 MicroMessenger/8.0.50';
