import type { APIRequestContext, Page } from '@playwright/test';
import { bookDetail, userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { payInSandbox } from './pay.ts';
import { expectImageLoaded, openAsVisitor, shot } from './support.ts';

// Buying chapters in the reader with real coins: the visitor pays through the sandbox gateway (the server's own
// cashier and notification), then buys from the overlay, with auto-buy, runs short, and reads free with VIP.

async function pricedChapters(request: APIRequestContext, vipFree: boolean) {
  for (let bookId = 1; bookId <= 64; bookId++) {
    const detail = await bookDetail(request, bookId);
    if (detail.book.vipFree !== vipFree) continue;
    const priced = detail.chapterList.filter((c) => c.price > 0);
    if (priced.length >= 2) return { detail, priced };
  }
  throw new Error(`no ${vipFree ? 'VIP-free' : 'not VIP-free'} book with two priced chapters`);
}

const readerUrl = (bookId: number, number: number) => `/book/read/${bookId}/${number}?title=x`;
const pages = (page: Page) => page.locator('.reader-page-img');

test.beforeEach(async ({ page }) => {
  await openAsVisitor(page, '/home');
});

test('buys a chapter from the overlay, then reads it; buying again charges nothing', async ({ page }) => {
  // 600 coins, and the demo's first-recharge offer (100) to this new reader.
  const paid = await payInSandbox(page, 'coin');
  const coins = paid.itemCount + paid.presentCount + (paid.firstPayBonus ?? 0);
  const { detail, priced } = await pricedChapters(page.request, true);
  const chapter = priced[0] as (typeof priced)[number];
  await page.goto(readerUrl(detail.book.bookId, chapter.number));
  const buy = page.locator('.reader-pay-buy');
  await expect(buy).toContainText(`余额：${coins}阅币`);
  await buy.getByRole('button', { name: '购买本章节' }).click();
  await expect(page.getByText('购买成功')).toBeVisible();
  await expect(pages(page).first()).toBeVisible();
  await expect(buy).toHaveCount(0);
  // The bought pages load through granted URLs (docs/api.md section 5); the plain path of the same page is refused.
  const first = pages(page).first();
  await expectImageLoaded(first);
  const src = (await first.getAttribute('src')) ?? '';
  expect(new URL(src, page.url()).pathname).toMatch(/^\/g\/\d+\/[A-Za-z0-9_-]{22}\/pages\//);
  const plain = new URL(src, page.url()).pathname.replace(/^\/g\/\d+\/[^/]+/, '');
  expect((await page.request.get(plain)).status()).toBe(403);
  await expect(page.getByText('购买成功')).toBeHidden();
  await shot(page, 'reader-bought');
  expect((await userInfo(page)).avaliableAmount).toBe(coins - chapter.price);

  // Reading it again shows the pages at once; the catalogue marks it bought.
  await page.reload();
  await expect(pages(page).first()).toBeVisible();
  const list = await page.request.post(`/api/book/chapter/list?bookId=${detail.book.bookId}`, {
    form: { bookId: String(detail.book.bookId) },
  });
  const bought = (await list.json()).data.find(
    (c: { chapterId: number }) => c.chapterId === chapter.chapterId,
  );
  expect(bought.alreadyBuy).toBe(true);
  expect((await userInfo(page)).avaliableAmount).toBe(coins - chapter.price);
});

test('with 自动购买下一话 on, the next priced chapter is bought without a dialog', async ({ page }) => {
  // 600 coins, and the demo's first-recharge offer (100) to this new reader.
  const paid = await payInSandbox(page, 'coin');
  const coins = paid.itemCount + paid.presentCount + (paid.firstPayBonus ?? 0);
  const { detail, priced } = await pricedChapters(page.request, true);
  const [first, second] = priced as [(typeof priced)[number], (typeof priced)[number]];
  await page.goto(readerUrl(detail.book.bookId, first.number));
  const buy = page.locator('.reader-pay-buy');
  await buy.getByText('自动购买下一话').click();
  await buy.getByRole('button', { name: '购买本章节' }).click();
  await expect(pages(page).first()).toBeVisible();

  await page.goto(readerUrl(detail.book.bookId, second.number));
  await expect(pages(page).first()).toBeVisible();
  await expect(page.locator('.reader-pay')).toHaveCount(0);
  await expect(page.getByText('购买成功')).toHaveCount(0);
  expect((await userInfo(page)).avaliableAmount).toBe(coins - first.price - second.price);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('ym-auto-buy') ?? '{}').state);
  expect(stored.bookIds).toEqual([detail.book.bookId]);
});

test('running out of coins leads to the recharge centre with the book id', async ({ page }) => {
  const { detail, priced } = await pricedChapters(page.request, false);
  const chapter = priced[0] as (typeof priced)[number];
  await page.goto(readerUrl(detail.book.bookId, chapter.number));
  await page.locator('.reader-pay-buy').getByRole('button', { name: '购买本章节' }).click();
  const recharge = page.locator('.reader-pay-recharge');
  await expect(recharge).toContainText('余额：0阅币');
  await recharge.getByRole('button', { name: '阅币不足，前往充值' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/purchase\\?bookId=${detail.book.bookId}&number=${chapter.number}$`),
  );
  await expect(page.getByText('充值中心')).toBeVisible();
  expect((await userInfo(page)).avaliableAmount).toBe(0);
});

test('VIP reads a VIP-free book free; a book that is not VIP-free still asks to buy', async ({ page }) => {
  await payInSandbox(page, 'vip');
  const free = await pricedChapters(page.request, true);
  await page.goto(readerUrl(free.detail.book.bookId, (free.priced[0] as { number: number }).number));
  await expect(pages(page).first()).toBeVisible();
  await expect(page.locator('.reader-pay')).toHaveCount(0);

  const paid = await pricedChapters(page.request, false);
  await page.goto(readerUrl(paid.detail.book.bookId, (paid.priced[0] as { number: number }).number));
  await expect(page.locator('.reader-pay-buy')).toContainText('本书不属于VIP免费阅读作品，请购买阅读');
  await expect(page.locator('.reader-pay-buy')).toHaveCSS('opacity', '1');
  await shot(page, 'reader-vip-not-free');
  const info = await userInfo(page);
  expect(info).toMatchObject({ vipType: expect.not.stringMatching(/^none$/), avaliableAmount: 0 });
});
