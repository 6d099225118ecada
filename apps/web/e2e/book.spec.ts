import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { expectImageLoaded, openAsVisitor, shot, storedShelf } from './support.ts';

test('the detail page shows the book, its chapters and recommendations', async ({ page, request }) => {
  const detail = await bookDetail(request, 1);
  await page.goto('/book/1');
  await expect(page.getByRole('heading', { name: detail.book.title })).toBeVisible();
  await expect(page.getByText(detail.book.author, { exact: true })).toBeVisible();
  await expect(page.getByText(detail.book.abstractContent)).toBeVisible();
  await expect(page.locator('.book-header .book-status')).toHaveText(
    detail.book.publishStatus === 'finish' ? '完结' : '连载',
  );
  await expect(page.getByRole('button', { name: '开始阅读' })).toBeVisible();
  await expect(page.getByRole('button', { name: '最新' })).toBeVisible();
  await expect(page.locator('.book-chapter-chip').first()).toContainText(detail.chapterList[0]?.title ?? '');
  await expect(page.locator('.book-recommend-grid .book-tile')).toHaveCount(detail.recommendList.length);
  expect(detail.recommendList.length).toBeGreaterThan(0);
  // Covers are decrypted into images.
  await expect(page.locator('.book-header-cover img')).toHaveJSProperty('complete', true);
  await expect(page.locator('.book-hero img')).toHaveJSProperty('complete', true);
  await shot(page, 'book-detail');
});

test('the favourite button toggles and is kept after a reload', async ({ page }) => {
  await page.goto('/book/2');
  await page.getByRole('button', { name: '加入收藏' }).click();
  await expect(page.getByRole('button', { name: '取消收藏' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: '取消收藏' })).toBeVisible();
  const shelf = await storedShelf(page);
  expect(shelf.favourites.map((b) => b.bookId)).toEqual([2]);
  await page.getByRole('button', { name: '取消收藏' }).click();
  await expect(page.getByRole('button', { name: '加入收藏' })).toBeVisible();
});

test('最新 opens the last chapter and 查看目录 the catalogue', async ({ page, request }) => {
  const detail = await bookDetail(request, 3);
  await page.goto('/book/3');
  await page.getByRole('link', { name: '查看目录' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/book/3/catalog\\?title=${encodeURIComponent(detail.book.title)}`),
  );
  await page.goBack();
  await page.getByRole('button', { name: '最新' }).click();
  await expect(page).toHaveURL(new RegExp(`/book/read/3/${detail.lastChapter?.number}\\?`));
});

test('an unknown book says so and links home', async ({ page }) => {
  await page.goto('/book/99999');
  await expect(page.getByText('这本漫画不存在或已下架')).toBeVisible();
  await page.getByRole('link', { name: '返回首页' }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test('the catalogue lists every chapter with its price and opens the reader', async ({ page, request }) => {
  const detail = await bookDetail(request, 1);
  await openAsVisitor(page, '/home');
  await page.goto(`/book/1/catalog?title=${encodeURIComponent(detail.book.title)}`);
  await expect(page.locator('.top-bar')).toContainText(detail.book.title);
  const rows = page.locator('.chapter-row');
  await expect(rows).toHaveCount(detail.chapterList.length);
  const priced = detail.chapterList.find((c) => c.price > 0);
  await expect(rows.first().locator('.chapter-tag')).toHaveText('免费');
  await expect(rows.nth((priced?.number ?? 1) - 1).locator('.chapter-tag')).toHaveText(
    `${priced?.price}阅币`,
  );
  const thumb = rows.first().locator('img');
  await expect(thumb).toHaveAttribute('loading', 'lazy');
  await expect(thumb).toHaveAttribute('src', /chapters\/.+_180_0\.img$/);
  await expectImageLoaded(thumb);
  for (const img of await page.locator('.chapter-thumb').all()) {
    if (
      !(await img.isVisible()) ||
      !(await img.evaluate((el) => el.getBoundingClientRect().top < innerHeight))
    )
      continue;
    await expectImageLoaded(img);
  }
  await shot(page, 'catalog');
  await rows.nth(1).click();
  await expect(page).toHaveURL(/\/book\/read\/1\/2\?/);
  const query = new URL(page.url()).searchParams;
  expect(query.get('title')).toBe(detail.book.title);
  expect(query.get('title2')).toBe(detail.chapterList[1]?.title);
});
