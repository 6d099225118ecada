import type { Page } from '@playwright/test';
import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { expectImageLoaded, expectReaderStarted, openAsVisitor, shot, storedShelf } from './support.ts';

const bottomBar = (page: Page) => page.locator('.reader-bottom');
const firstPage = (page: Page) => page.locator('.reader-page-img').first();

async function expectLoadedPage(page: Page) {
  await expectReaderStarted(page);
  await expect(firstPage(page)).toBeVisible();
  await expectImageLoaded(firstPage(page));
}

test('开始阅读 opens chapter 1 with real pages at width 1000; next and previous replace the route', async ({
  page,
}) => {
  await page.goto('/book/1');
  await page.getByRole('button', { name: '开始阅读' }).click();
  await expect(page).toHaveURL(/\/book\/read\/1\/1\?title=/);
  await expectLoadedPage(page);
  await expect(firstPage(page)).toHaveAttribute('src', /pages\/.+_1000_0\.img$/);
  await expect(firstPage(page)).toHaveAttribute('loading', 'eager');
  await expect(firstPage(page)).toHaveAttribute('fetchpriority', 'high');
  const imgs = page.locator('.reader-page-img');
  expect(await imgs.count()).toBeGreaterThan(2);
  await expect(imgs.nth(2)).toHaveAttribute('loading', 'lazy');
  // Every page reserves its box before it loads.
  for (const img of await imgs.all()) {
    await expect(img).toHaveAttribute('width', /^\d+$/);
    await expect(img).toHaveAttribute('height', /^\d+$/);
  }
  await expect(page.locator('.reader-top')).toContainText('第1话');
  await shot(page, 'reader');

  const length = await page.evaluate(() => history.length);
  await bottomBar(page).getByRole('button', { name: '下一话' }).click();
  await expect(page).toHaveURL(/\/book\/read\/1\/2\?/);
  // The next chapter slides in from the right, the previous one from the left.
  await expect(page.locator('.reader-tap')).toHaveClass(/chapter-enter-forward/);
  await expectLoadedPage(page);
  expect(await page.evaluate(() => history.length)).toBe(length);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await bottomBar(page).getByRole('button', { name: '上一话' }).click();
  await expect(page).toHaveURL(/\/book\/read\/1\/1\?/);
  await expect(page.locator('.reader-tap')).toHaveClass(/chapter-enter-backward/);
  expect(await page.evaluate(() => history.length)).toBe(length);

  await bottomBar(page).getByRole('button', { name: '上一话' }).click();
  await expect(page.getByText('已经是第一章啦')).toBeVisible();
  await expect(page).toHaveURL(/\/book\/read\/1\/1\?/);
  await expect(page.getByText('已经是第一章啦')).toBeHidden({ timeout: 4000 });
});

test("a free chapter's later parts (the buy step, auto-scroll) wait for the first screen, then load untouched", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    const file = /\/assets\/(chapter-purchase|auto-scroll-control)-[^/]+\.js$/.exec(
      new URL(r.url()).pathname,
    );
    if (file?.[1]) asked.push(file[1]);
  });
  const detail = await bookDetail(page.request, 1);
  const free = detail.chapterList.find((c) => c.price === 0);
  if (!free) throw new Error('book 1 has no free chapter');
  await page.goto(`/book/read/1/${free.number}`);
  const openedAt = Date.now();
  await expectLoadedPage(page);
  // Three seconds in, within the first screen's time (lib/chunk-load.ts, FIRST_SCREEN_MS): neither was asked for.
  await page.waitForTimeout(Math.max(0, 3000 - (Date.now() - openedAt)));
  expect(asked).toEqual([]);
  await expect
    .poll(() => [...asked].sort(), { timeout: 20_000 })
    .toEqual(['auto-scroll-control', 'chapter-purchase']);
});

test('the menus hide while scrolling and show again at the bottom and on tap', async ({ page }) => {
  await page.goto('/book/read/2/1?title=x');
  await expectLoadedPage(page);
  await expect(page.locator('.reader-top')).toHaveClass(/is-visible/);
  await page.mouse.wheel(0, 600);
  await expect(page.locator('.reader-top')).not.toHaveClass(/is-visible/);
  // A tap in the middle of the screen (no scrolling on the way).
  await page.waitForTimeout(300);
  await page.touchscreen.tap(195, 420);
  await expect(page.locator('.reader-top')).toHaveClass(/is-visible/);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.locator('.reader-bottom')).toHaveClass(/is-visible/);
});

test('next on the last chapter says it is the last', async ({ page, request }) => {
  const detail = await bookDetail(request, 1);
  await openAsVisitor(page, '/home');
  await page.goto(`/book/read/1/${detail.lastChapter?.number}?title=x`);
  await expect(page.locator('.reader-top')).toContainText(detail.lastChapter?.title ?? '');
  await bottomBar(page).getByRole('button', { name: '下一话' }).click();
  await expect(page.getByText('已经是最后一章啦')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/book/read/1/${detail.lastChapter?.number}\\?`));
});

test('a priced chapter shows the buy overlay; without coins it leads to the recharge centre', async ({
  page,
  request,
}) => {
  const detail = await bookDetail(request, 3);
  const priced = detail.chapterList.find((c) => c.price > 0);
  if (!priced) throw new Error('book 3 has no priced chapter');
  await openAsVisitor(page, '/home');
  await page.goto(`/book/read/3/${priced.number}?title=${encodeURIComponent(detail.book.title)}`);
  const buy = page.locator('.reader-pay-buy');
  await expect(buy).toBeVisible();
  await expect(buy).toContainText(`${priced.price}阅币`);
  await expect(buy).toContainText(
    detail.book.vipFree ? '开通VIP，海量漫画免费看' : '本书不属于VIP免费阅读作品，请购买阅读',
  );
  await expect(buy.getByText('自动购买下一话')).toBeVisible();
  await expect(buy).toContainText('余额：0阅币');
  await expect(buy).toHaveCSS('opacity', '1');
  await shot(page, 'reader-buy-overlay');

  await buy.getByRole('button', { name: '购买本章节' }).click();
  const recharge = page.locator('.reader-pay-recharge');
  await expect(recharge.getByRole('button', { name: '阅币不足，前往充值' })).toBeVisible();
  await expect(recharge).toContainText(`${priced.price}阅币`);
  await expect(recharge).toContainText('余额：0阅币');
  await expect(recharge).toHaveCSS('opacity', '1');
  await expect(buy).toHaveCount(0);
  await shot(page, 'reader-recharge-overlay');
  await recharge.getByRole('button', { name: '阅币不足，前往充值' }).click();
  await expect(page).toHaveURL(new RegExp(`/purchase\\?bookId=3&number=${priced.number}$`));
  await expect(page.getByText('充值中心')).toBeVisible();
});

test('after reading, 开始阅读 offers to continue at the last chapter read', async ({ page }) => {
  await page.goto('/book/read/4/2?title=x');
  await expectLoadedPage(page);
  await expect
    .poll(async () => (await storedShelf(page))?.history?.[0])
    .toMatchObject({ number: 2, bookInfo: { bookId: 4 } });
  await page.goto('/book/4');
  await page.getByRole('button', { name: /开始阅读/ }).click();
  await expect(page.getByText('上次阅读到第2话，是否继续阅读？')).toBeVisible();
  await page.getByRole('button', { name: '取消' }).click();
  await expect(page).toHaveURL(/\/book\/4$/);
  await page.getByRole('button', { name: /开始阅读/ }).click();
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page).toHaveURL(/\/book\/read\/4\/2\?/);
});

test('the shelf button in the reader adds the book to favourites', async ({ page }) => {
  await page.goto('/book/read/5/1?title=x');
  await expectLoadedPage(page);
  // A tap before the book's details arrived says 书本信息加载中 and adds nothing: the reader taps again.
  await expect(async () => {
    const add = bottomBar(page).getByRole('button', { name: '收藏', exact: true });
    if (await add.isVisible()) await add.click();
    await expect(bottomBar(page).getByRole('button', { name: '已收藏' })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  const shelf = await storedShelf(page);
  expect(shelf.favourites.map((b) => b.bookId)).toEqual([5]);
});

test('a book split in two shows each page as a pair side by side at half width', async ({ page }) => {
  await page.goto('/book/read/55/1?title=x');
  await expectLoadedPage(page);
  const row = page.locator('.reader-page-row').first();
  const [left, right] = await row.locator('img').all();
  if (!left || !right) throw new Error('expected two slices');
  const a = await left.boundingBox();
  const b = await right.boundingBox();
  expect(a?.width).toBeCloseTo(195, 0);
  expect(b?.width).toBeCloseTo(195, 0);
  expect(a?.y).toBe(b?.y);
  expect(b?.x).toBeCloseTo(195, 0);
});

test('bad addresses and missing chapters say so', async ({ page }) => {
  await page.goto('/book/read/abc/1');
  await expect(page.getByText('当前书本信息未加载，请返回主页重新操作')).toBeVisible();
  await page.goto('/book/read/1/9999?title=x');
  await expect(page.getByText('没有更多章节啦 ^_^')).toBeVisible();
  await shot(page, 'reader-no-more');
});

test('a priced chapter without a user asks to come back later', async ({ page }) => {
  // No visitor yet and registration blocked: the chapter answers code 101.
  await page.route('**/api/user/register**', (route) => route.abort());
  await page.goto('/book/read/3/10?title=x');
  await expect(page.getByText('信息获取失败，请返回稍后重试')).toBeVisible();
});
