import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { scrollUntil, shot } from './support.ts';

const items = (page: Page) => page.getByTestId('category-item');

const scrollToEnd = (page: Page) =>
  scrollUntil(
    page,
    () => expect(page.getByText('暂时没有更多漫画啦!')).toBeVisible({ timeout: 1000 }),
    30_000,
  );

test('category filters change the list and live in the address', async ({ page }) => {
  await page.goto('/category');
  const statuses = page.getByTestId('status-filter').getByRole('button');
  const categories = page.getByTestId('category-filter').getByRole('button');
  await expect(statuses.first()).toHaveText('全部');
  await expect(statuses.first()).toHaveAttribute('aria-pressed', 'true');
  await expect(categories.first()).toHaveText('全部');
  await expect(categories.nth(1)).toBeVisible();
  await expect(items(page).nth(2).locator('.cover img')).toBeVisible();
  await shot(page, 'category');

  // Status 完结: only finished books.
  await page.getByTestId('status-filter').getByRole('button', { name: '完结' }).click();
  await expect(page).toHaveURL(/status=finish/);
  await expect(items(page).first()).toBeVisible();
  await expect(page.locator('.cat-list .status-serialize')).toHaveCount(0);
  await expect(page.locator('.cat-list .status-finish').first()).toHaveText('完结');
  await expect(items(page).nth(2).locator('.cover img')).toBeVisible();
  await shot(page, 'category-finish');

  // A category chip: only that category (with 完结 still on).
  await page.getByTestId('status-filter').getByRole('button', { name: '全部' }).click();
  await expect(page).not.toHaveURL(/status=/);
  const chip = categories.nth(1);
  const name = (await chip.textContent()) ?? '';
  await chip.click();
  await expect(page).toHaveURL(/category=\d+/);
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await expect(items(page).first()).toBeVisible();
  await scrollToEnd(page);
  const metas = await page.locator('.cat-list .book-row-meta').allTextContents();
  expect(metas.length).toBeGreaterThan(0);
  for (const meta of metas) expect(meta).toContain(name);
  await expect(items(page).last().locator('.cover img')).toBeVisible();
  await shot(page, 'category-end');

  // Open a book and come back: the filter is still there.
  const url = page.url();
  await items(page).first().locator('a').click();
  await expect(page).toHaveURL(/\/book\/\d+$/);
  await page.goBack();
  await expect(page).toHaveURL(url);
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
});

test('the whole category list pages to the end', async ({ page }) => {
  await page.goto('/category');
  await expect(items(page).first()).toBeVisible();
  await scrollToEnd(page);
  await expect(items(page)).toHaveCount(64);
});
