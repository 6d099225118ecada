import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectImageLoaded, scrollUntil, shot } from './support.ts';

const items = (page: Page) => page.getByTestId('list-item');

const adLoaded = (page: Page) => expectImageLoaded(page.getByTestId('ad-carousel').locator('img').first());

/** Scrolls to the bottom until at least `n` items are shown. */
async function loadAtLeast(page: Page, n: number) {
  await expect(items(page).first()).toBeVisible();
  await scrollUntil(page, async () => expect(await items(page).count()).toBeGreaterThanOrEqual(n), 20_000);
}

test('ranked list: tiles then rows, NO.n numbering with hot badges, page 2 and the end', async ({ page }) => {
  await page.goto('/home/ranked');
  await expect(page.locator('.top-bar')).toContainText('人气排行');
  await expect(page.getByTestId('ad-carousel').locator('img').first()).toBeVisible();
  await expect(page.locator('.ml-tiles .book-tile')).toHaveCount(3);
  const first = page.getByText('NO.1', { exact: true });
  await expect(first).toBeVisible();
  await expect(first).toHaveClass(/rank-hot/);
  await expect(page.getByText('NO.3', { exact: true })).toHaveClass(/rank-hot/);
  await expect(page.getByText('NO.4', { exact: true })).not.toHaveClass(/rank-hot/);
  await expect(page.locator('.ml-tiles .cover img')).toHaveCount(3);
  await expect(page.locator('.ml-list .book-row .cover img').first()).toBeVisible();
  await adLoaded(page);
  await shot(page, 'list-ranked');
  await loadAtLeast(page, 21);
  await expect(page.getByText('NO.21', { exact: true })).toBeAttached();
  await loadAtLeast(page, 30);
  await expect(page.getByText('暂时没有更多漫画啦!')).toBeVisible();
  await expect(items(page)).toHaveCount(30);
  await expect(items(page).last().locator('.cover img')).toBeVisible();
  await shot(page, 'list-ranked-end');
});

test('other lists have no ranking numbers', async ({ page }) => {
  await page.goto('/home/recommend');
  await expect(page.locator('.top-bar')).toContainText('推荐');
  await expect(items(page).first()).toBeVisible();
  await expect(page.locator('.rank')).toHaveCount(0);
});

test('going back to a list restores its loaded pages and scroll position', async ({ page }) => {
  await page.goto('/home/new');
  await expect(page.locator('.top-bar')).toContainText('每日更新');
  await loadAtLeast(page, 21);
  await expect(page.locator('.adm-infinite-scroll')).toBeAttached();
  // Let the page settle (no fetch in flight), then scroll to a row of page 2.
  await page.waitForLoadState('networkidle');
  const count = await items(page).count();
  const target = items(page).nth(22);
  await target.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -200));
  await page.waitForLoadState('networkidle');
  const countBefore = await items(page).count();
  expect(countBefore).toBeGreaterThanOrEqual(count);
  const y = await page.evaluate(() => window.scrollY);
  expect(y).toBeGreaterThan(1000);
  const link = items(page).nth(22).locator('a');
  const href = await link.getAttribute('href');
  await expect(items(page).nth(22).locator('.cover img')).toBeVisible();
  await shot(page, 'list-new-scrolled');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await page.goBack();
  await expect(page).toHaveURL(/\/home\/new$/);
  await expect(items(page)).toHaveCount(countBefore);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 50);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - y)).toBeLessThanOrEqual(50);
  await expect(items(page).nth(22).locator('.cover img')).toBeVisible();
  await shot(page, 'list-new-restored');
});
