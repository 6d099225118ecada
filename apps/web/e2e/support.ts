import { type BrowserContextOptions, expect, type Locator, type Page } from '@playwright/test';
import type { Book, UserInfo } from '@yueman/contract';

/** Saves a screenshot of the screen under e2e/screenshots (not committed) for a person to look at. */
export async function shot(page: Page, name: string) {
  await page.screenshot({
    path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname,
    fullPage: false,
  });
}

/**
 * A screenshot of the settled screen: the CSS animations (slide-ins) have finished, and so have antd-mobile's
 * JS springs (sheets, dialogs, toasts, pickers), which document.getAnimations() does not list: they get time.
 */
export async function settledShot(page: Page, name: string) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.waitForTimeout(600);
  await shot(page, name);
}

/** What this device stores about its reader (docs/decisions.md, local storage key ym-user). */
export interface StoredUser {
  userInfo: UserInfo;
  password: string;
}

export async function storedUser(page: Page): Promise<StoredUser> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('ym-user') ?? '{}').state);
}

/** Waits until the app has registered the visitor (local storage holds the user), and returns what it stored. */
export async function waitForVisitor(page: Page) {
  await page.waitForFunction(() => {
    const raw = localStorage.getItem('ym-user');
    return raw !== null && JSON.parse(raw).state?.userInfo?.userId > 0;
  });
  return storedUser(page);
}

/** Opens `path` as a new visitor, once the app has registered them; what it stored about them. */
export async function openAsVisitor(page: Page, path: string) {
  await page.goto(path);
  return waitForVisitor(page);
}

/** The shelf this device keeps (local storage key ym-shelf): favourites and reading history. */
export interface StoredShelf {
  favourites: Book[];
  history: { bookInfo: Book; number: number; date: number }[];
}

export async function storedShelf(page: Page): Promise<StoredShelf> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('ym-shelf') ?? '{}').state);
}

/** Puts a shelf on this device as the app stores it, then reloads so the app reads it. */
export async function seedShelf(page: Page, shelf: StoredShelf) {
  await page.evaluate(
    (state) => localStorage.setItem('ym-shelf', JSON.stringify({ state, version: 0 })),
    shelf,
  );
  await page.reload();
}

/** Today's date in China (yyyy-mm-dd), where the server dates payments and VIP. */
export const chinaDate = (at = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(at);

/**
 * Waits until an image has really loaded, not only been laid out: complete, with its natural width known. A demo
 * page's first request draws it (a second or so of the server's CPU on 2 cores), and a chapter asks for several at
 * once while another spec's browser does the same: the wait is generous, since speed is the benchmarks' to measure
 * (bench:page-images, bench:next-chapter), not a test's.
 */
export async function expectImageLoaded(img: Locator) {
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
}

/** Scrolls to the bottom, again and again (a list loads its next page there), until `done` passes. */
export async function scrollUntil(page: Page, done: () => Promise<void>, timeout: number) {
  await expect(async () => {
    await page.mouse.wheel(0, 4000);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await done();
  }).toPass({ timeout });
}

/** A desktop browser, which the site sends to its PC page. */
export const PC: BrowserContextOptions = {
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  isMobile: false,
  hasTouch: false,
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
};

/**
 * WeChat's in-app browser, which the site asks to open the page in a browser: the project's phone (the options
 * of playwright.config.ts, which a new context starts from) with WeChat's user agent.
 */
export const WECHAT: BrowserContextOptions = {
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36 MicroMessenger/8.0.50',
};

/**
 * The reader as the app draws it. Opening a free chapter's address, index.html paints its top bar and first page
 * before the code arrives (no-blank-screen.spec.ts); only the app draws the bottom bar. Then two frames: the
 * reader takes its scroll baseline in its first frame (use-menu-visibility.ts), and a spec's single scrollTo made
 * before it would not hide the menus (a finger's scroll, many events, would).
 */
export async function expectReaderStarted(page: Page) {
  await expect(page.locator('.reader-bottom')).toBeAttached();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}
