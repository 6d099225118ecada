import type { Page } from '@playwright/test';
import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { openAsVisitor, seedShelf, shot, storedShelf } from './support.ts';

/** Books 1 and 2 in the favourites; 3 (chapter 3, a minute ago) and 1 (chapter 2, yesterday) in the history. */
async function seedBooks(page: Page) {
  const [a, b, c] = (await Promise.all([1, 2, 3].map((id) => bookDetail(page.request, id)))).map(
    (d) => d.book,
  );
  if (!a || !b || !c) throw new Error('the demo library has books 1 to 3');
  const now = Date.now();
  await seedShelf(page, {
    favourites: [a, b],
    history: [
      { bookInfo: c, number: 3, date: now - 60_000 },
      { bookInfo: a, number: 2, date: now - 86_400_000 },
    ],
  });
  return { a, b, c };
}

test('an empty shelf shows the empty state on both tabs', async ({ page }) => {
  await page.goto('/shelf');
  await expect(page.getByRole('tab', { name: '我的收藏' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('暂时没有记录')).toBeVisible();
  await page.getByRole('tab', { name: '阅读历史' }).click();
  await expect(page).toHaveURL(/\/shelf\?active=history$/);
  await expect(page.getByText('暂时没有记录')).toBeVisible();
});

test('favourites are listed and can be removed', async ({ page }) => {
  await openAsVisitor(page, '/shelf');
  const { a, b } = await seedBooks(page);
  const list = page.getByRole('list', { name: '我的收藏' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText(a.title)).toBeVisible();
  await expect(list.getByText('读到第2话')).toBeVisible();
  await expect(list.locator('.cover img')).toHaveCount(2);
  await shot(page, 'shelf-favourites');

  await list.getByRole('button', { name: `取消收藏 ${b.title}` }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByText(b.title)).toBeHidden();
  const stored = await storedShelf(page);
  expect(stored.favourites.map((x) => x.bookId)).toEqual([a.bookId]);

  await list.getByRole('button', { name: `取消收藏 ${a.title}` }).click();
  await expect(page.getByText('暂时没有记录')).toBeVisible();
});

test('?active=history shows reading history; an entry continues at its chapter', async ({ page }) => {
  await openAsVisitor(page, '/shelf?active=history');
  const { c } = await seedBooks(page);
  await expect(page.getByRole('tab', { name: '阅读历史' })).toHaveAttribute('aria-selected', 'true');
  const list = page.getByRole('list', { name: '阅读历史' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText(c.title);
  await expect(list.getByRole('listitem').first()).toContainText('读到第3话');
  await expect(list.getByRole('listitem').first()).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await expect(list.locator('.cover img')).toHaveCount(2);
  await shot(page, 'shelf-history');

  await page.getByRole('tab', { name: '我的收藏' }).click();
  await expect(page).toHaveURL(/\/shelf$/);
  await page.getByRole('tab', { name: '阅读历史' }).click();
  await list.getByRole('link', { name: new RegExp(c.title) }).click();
  await expect(page).toHaveURL(new RegExp(`/book/read/${c.bookId}/3$`));
});
