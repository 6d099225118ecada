import type { Page } from '@playwright/test';
import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { expectImageLoaded, expectReaderStarted, settledShot, shot } from './support.ts';

// The reader's settings sheet (设置): auto-scroll, page gaps, night mode (kept on the phone), double-tap zoom,
// the pages' alternative text and the keyboard. Book 2's chapter 1 is free in the demo library.
const CHAPTER = '/book/read/2/1?title=x';

const bottomBar = (page: Page) => page.locator('.reader-bottom');
const settingsButton = (page: Page) => bottomBar(page).getByRole('button', { name: '设置' });
const sheet = (page: Page) => page.getByRole('dialog', { name: '设置' });
const control = (page: Page) => page.getByRole('group', { name: '自动滚动' });
const pageImages = (page: Page) => page.locator('.reader-page-img');

async function openChapter(page: Page, path = CHAPTER) {
  await page.goto(path);
  await expectReaderStarted(page);
  await expect(pageImages(page).first()).toBeVisible();
  await expectImageLoaded(pageImages(page).first());
}

/** How fast the window scrolls, in CSS pixels per second, measured over `ms`. */
const scrollRate = (page: Page, ms = 1000) =>
  page.evaluate(async (ms) => {
    const y0 = window.scrollY;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, ms));
    return (window.scrollY - y0) / ((performance.now() - t0) / 1000);
  }, ms);

/** The gap between the first two pages, in CSS pixels. */
const gapBetweenPages = (page: Page) =>
  page.evaluate(() => {
    const [a, b] = [...document.querySelectorAll('.reader-page-row')].map((el) => el.getBoundingClientRect());
    return a && b ? Math.round(b.top - a.bottom) : Number.NaN;
  });

const storedSettings = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('ym-reader-settings') ?? 'null'));

test('设置: night mode, page gaps and auto-scroll with a speed changed while it runs, remembered on the phone', async ({
  page,
}) => {
  await openChapter(page);
  // Today's look by default: the pages touch, no night mode.
  expect(await gapBetweenPages(page)).toBe(0);
  await expect(page.locator('.reader')).toHaveCSS('background-color', 'rgb(26, 26, 26)');
  await expect(pageImages(page).first()).toHaveCSS('filter', 'none');
  await expect(control(page)).toHaveCount(0);

  await settingsButton(page).click();
  await expect(sheet(page)).toBeVisible();
  await expect(settingsButton(page)).toHaveAttribute('aria-expanded', 'true');
  await settledShot(page, 'reader-settings');

  // 夜间模式: black behind the pages, dimmed pages, black bars.
  await sheet(page).getByRole('switch', { name: '夜间模式' }).click();
  await expect(sheet(page).getByRole('switch', { name: '夜间模式' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('.reader')).toHaveCSS('background-color', 'rgb(0, 0, 0)');
  await expect(pageImages(page).first()).toHaveCSS('filter', 'brightness(0.8)');
  await expect(bottomBar(page)).toHaveCSS('background-color', 'rgba(0, 0, 0, 0.94)');
  await expect(page.locator('.reader-top')).toHaveCSS('background-color', 'rgba(0, 0, 0, 0.94)');

  // 页面间隙: a small gap between pages.
  await sheet(page).getByRole('switch', { name: '页面间隙' }).click();
  await expect(page.locator('.reader-pages')).toHaveCSS('row-gap', '8px');
  expect(await gapBetweenPages(page)).toBe(8);
  await settledShot(page, 'reader-settings-night');

  // 自动滚动 starts at once, at the middle speed, and the floating control shows.
  const slider = sheet(page).getByRole('slider', { name: '滚动速度' });
  await expect(slider).toHaveValue('3');
  await sheet(page).getByRole('switch', { name: '自动滚动' }).click();
  await expect(control(page).getByRole('button', { name: '暂停自动滚动' })).toBeVisible();
  await expect(control(page)).toContainText('3档');
  const slow = await scrollRate(page);
  expect(slow).toBeGreaterThan(35);
  expect(slow).toBeLessThan(90);

  // Faster while it runs, with the sheet's slider: two steps up (60 to 135 px/s).
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue('5');
  await expect(sheet(page)).toContainText('5档');
  await expect(control(page)).toContainText('5档');
  await expect(control(page).getByRole('button', { name: '暂停自动滚动' })).toBeVisible();
  const fast = await scrollRate(page);
  expect(fast).toBeGreaterThan(slow * 1.6);

  await sheet(page).getByRole('button', { name: '关闭设置' }).click();
  await expect(sheet(page)).toBeHidden();
  // The menus went away when it started, and stay away while it runs.
  await expect(page.locator('.reader-top')).not.toHaveClass(/is-visible/);
  await shot(page, 'reader-night-auto-scroll');

  // And with the floating control: one step down, still running.
  await expect(control(page).getByRole('button', { name: '加快滚动速度' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await control(page).getByRole('button', { name: '减慢滚动速度' }).click();
  await expect(control(page)).toContainText('4档');
  await expect(control(page).getByRole('button', { name: '暂停自动滚动' })).toBeVisible();
  const middle = await scrollRate(page, 600);
  expect(middle).toBeGreaterThan(slow * 1.2);
  expect(middle).toBeLessThan(fast);

  // A tap on the pages pauses it, and does not bring the menus.
  await page.waitForTimeout(300);
  await page.touchscreen.tap(195, 380);
  await expect(control(page).getByRole('button', { name: '继续自动滚动' })).toBeVisible();
  expect(await scrollRate(page, 600)).toBe(0);
  await expect(page.locator('.reader-top')).not.toHaveClass(/is-visible/);

  expect(await storedSettings(page)).toEqual({
    // The spending order of the buy prompt (阅读券 first by default) is kept with them.
    state: { autoScroll: true, speed: 4, gaps: true, night: true, spendOrder: 'ticket_first' },
    version: 0,
  });

  // The next visit: the same settings, and auto-scroll starts by itself after a moment.
  await page.reload();
  await expectReaderStarted(page);
  await expect(pageImages(page).first()).toBeVisible();
  await expect(page.locator('.reader')).toHaveClass(/is-night/);
  await expect(pageImages(page).first()).toHaveCSS('filter', 'brightness(0.8)');
  expect(await gapBetweenPages(page)).toBe(8);
  await expect(control(page)).toContainText('4档');
  await expect(control(page).getByRole('button', { name: '暂停自动滚动' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(20);
  await control(page).getByRole('button', { name: '暂停自动滚动' }).click();
  await expect(control(page).getByRole('button', { name: '继续自动滚动' })).toBeVisible();

  // With reduced motion it waits for 继续.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  await expectReaderStarted(page);
  await expect(pageImages(page).first()).toBeVisible();
  await expect(control(page).getByRole('button', { name: '继续自动滚动' })).toBeVisible();
  // The chapter reopens where the reader stopped (exact resume), and stays there.
  const resumedAt = await page.evaluate(() => window.scrollY);
  await page.waitForTimeout(2000);
  expect(await page.evaluate(() => window.scrollY)).toBe(resumedAt);
  await expect(control(page).getByRole('button', { name: '继续自动滚动' })).toBeVisible();
  await control(page).getByRole('button', { name: '继续自动滚动' }).click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(resumedAt + 20);

  // 关闭 on the control turns the setting off.
  await control(page).getByRole('button', { name: '关闭自动滚动' }).click();
  await expect(control(page)).toHaveCount(0);
  expect((await storedSettings(page)).state.autoScroll).toBe(false);
  const y = await page.evaluate(() => window.scrollY);
  await page.waitForTimeout(400);
  expect(await page.evaluate(() => window.scrollY)).toBe(y);
});

test('auto-scroll stops at the end of the chapter and shows the menus', async ({ page }) => {
  await openChapter(page);
  await page.evaluate(() => {
    localStorage.setItem(
      'ym-reader-settings',
      JSON.stringify({ state: { autoScroll: false, speed: 5, gaps: false, night: false }, version: 0 }),
    );
  });
  await page.reload();
  await expectReaderStarted(page);
  await expect(pageImages(page).first()).toBeVisible();
  await page.evaluate(() =>
    window.scrollTo(0, document.documentElement.scrollHeight - window.innerHeight - 200),
  );
  // The scroll hid the menus; a tap brings them back.
  await expect(bottomBar(page)).not.toHaveClass(/is-visible/);
  await page.waitForTimeout(300);
  await page.touchscreen.tap(195, 300);
  await expect(bottomBar(page)).toHaveClass(/is-visible/);
  await settingsButton(page).click();
  await sheet(page).getByRole('switch', { name: '自动滚动' }).click();
  await page.keyboard.press('Escape');
  await expect(control(page).getByRole('button', { name: '继续自动滚动' })).toBeVisible({ timeout: 5000 });
  const atBottom = await page.evaluate(
    () => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1,
  );
  expect(atBottom).toBe(true);
  await expect(page.locator('.reader-bottom')).toHaveClass(/is-visible/);
  await expect(page.getByText('本话完')).toBeInViewport();
});

test('a double tap zooms a page to twice its size around the tap; another restores it and scrolling goes on', async ({
  page,
}) => {
  await openChapter(page);
  const row = page.locator('.reader-page-row').first();
  const firstPage = row.locator('.reader-page');
  const before = await firstPage.boundingBox();
  if (!before) throw new Error('no first page');
  expect(before.width).toBeCloseTo(390, 0);
  // Wait for the menus' own timers, then tap twice at the middle of the first page.
  await page.waitForTimeout(400);
  const x = 195;
  const y = Math.round(Math.min(before.y + before.height / 2, 500));
  const fy = (y - before.y) / before.height;
  const tapTwice = async () => {
    await page.touchscreen.tap(x, y);
    await page.touchscreen.tap(x, y);
  };
  await expect(page.locator('.reader-top')).toHaveClass(/is-visible/);

  await tapTwice();
  await expect(row).toHaveClass(/is-zoomed/);
  await expect.poll(async () => (await firstPage.boundingBox())?.width).toBeCloseTo(780, 0);
  // The point tapped stays under the finger.
  const zoomed = await firstPage.boundingBox();
  if (!zoomed) throw new Error('no zoomed page');
  expect(zoomed.height).toBeCloseTo(before.height * 2, 0);
  expect(zoomed.x).toBeCloseTo(-195, 0);
  expect(zoomed.y + fy * zoomed.height).toBeCloseTo(y, 0);
  // The zoomed page pans inside its row; the screen itself does not scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  // Keeping the point in place scrolled the window, which hid the menus (as any scrolling does); the taps
  // themselves did not toggle them (a single tap would have shown them again after its wait).
  await expect(page.locator('.reader-top')).not.toHaveClass(/is-visible/);
  await page.waitForTimeout(500);
  await expect(page.locator('.reader-top')).not.toHaveClass(/is-visible/);
  await shot(page, 'reader-zoomed');

  await tapTwice();
  await expect(row).not.toHaveClass(/is-zoomed/);
  await expect.poll(async () => (await firstPage.boundingBox())?.width).toBeCloseTo(390, 0);
  const restored = await firstPage.boundingBox();
  expect(restored?.height ?? 0).toBeCloseTo(before.height, 0);

  // Back at 1x the chapter scrolls on to its last page and its end.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByText('本话完')).toBeInViewport();
  const last = page.locator('.reader-page-row').last();
  expect((await last.boundingBox())?.width).toBeCloseTo(390, 0);

  // A single tap still shows or hides the menus.
  await page.evaluate(() => window.scrollTo(0, 800));
  await expect(page.locator('.reader-top')).not.toHaveClass(/is-visible/);
  await page.waitForTimeout(300);
  await page.touchscreen.tap(195, 420);
  await expect(page.locator('.reader-top')).toHaveClass(/is-visible/);
});

test('page images are named by book, chapter and page; every reader button has a name', async ({
  page,
  request,
}) => {
  const detail = await bookDetail(request, 2);
  await openChapter(page);
  const images = await pageImages(page).all();
  expect(images.length).toBeGreaterThan(2);
  for (const [i, img] of images.entries()) {
    await expect(img).toHaveAttribute('alt', `《${detail.book.title}》 第1话 第${i + 1}页`);
  }
  await settingsButton(page).click();
  await expect(sheet(page)).toBeVisible();
  // The sheet's controls while it is open (once closed it is hidden, and hidden controls have no name: checking
  // them after Escape raced the sheet's closing on a busy machine).
  for (const button of await sheet(page).locator('button, input').all()) {
    await expect(button).toHaveAccessibleName(/\S/);
  }
  await sheet(page).getByRole('switch', { name: '自动滚动' }).click();
  await page.keyboard.press('Escape');
  await expect(control(page)).toBeVisible();
  await expect(sheet(page)).toBeHidden();
  for (const button of await page.locator('.reader button').all()) {
    await expect(button).toHaveAccessibleName(/\S/);
  }

  // A page in two slices names each.
  const split = await bookDetail(request, 55);
  await openChapter(page, '/book/read/55/1?title=x');
  const [left, right] = await page.locator('.reader-page-row').first().locator('img').all();
  await expect(left ?? page.locator('none')).toHaveAttribute(
    'alt',
    `《${split.book.title}》 第1话 第1页 1/2`,
  );
  await expect(right ?? page.locator('none')).toHaveAttribute(
    'alt',
    `《${split.book.title}》 第1话 第1页 2/2`,
  );
});

test('the keyboard: Tab reaches 设置 (the bars show), Enter opens the sheet, Tab stays in it, Escape closes it', async ({
  page,
}) => {
  await openChapter(page);
  await page.evaluate(() => window.scrollTo(0, 800));
  await expect(page.locator('.reader-bottom')).not.toHaveClass(/is-visible/);

  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await settingsButton(page).evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  await expect(page.locator('.reader-bottom')).toHaveClass(/is-visible/);

  await page.keyboard.press('Enter');
  await expect(sheet(page)).toBeVisible();
  await expect(sheet(page)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sheet(page).getByRole('button', { name: '关闭设置' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sheet(page).getByRole('switch', { name: '自动滚动' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sheet(page).getByRole('slider', { name: '滚动速度' })).toBeFocused();
  await page.keyboard.press('Tab');
  const gaps = sheet(page).getByRole('switch', { name: '页面间隙' });
  await expect(gaps).toBeFocused();
  await page.keyboard.press('Space');
  await expect(gaps).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Tab');
  const night = sheet(page).getByRole('switch', { name: '夜间模式' });
  await expect(night).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(night).toHaveAttribute('aria-checked', 'true');
  // Round to the first control again.
  await page.keyboard.press('Tab');
  await expect(sheet(page).getByRole('button', { name: '关闭设置' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(night).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(sheet(page)).toBeHidden();
  await expect(settingsButton(page)).toBeFocused();
  await expect(settingsButton(page)).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('.reader')).toHaveClass(/is-night/);
  await expect(page.locator('.reader')).toHaveClass(/has-gaps/);
});
