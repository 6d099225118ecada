import type { Page, Request } from '@playwright/test';
import type { ChapterInfo } from '@yueman/contract';
import { apiData, bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { expectReaderStarted, openAsVisitor } from './support.ts';

// Paywall-aware prefetch: near the end of a chapter the next one's first pages are fetched ahead only when the
// reader could open it, never a page the server would refuse, and fewer on a save-data connection.

const pagePath = (url: string) => new URL(url).pathname.replace(/_\d+_0\.img$/, '').slice(1);

function imageRequests(page: Page) {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
    if (/_\d+_0\.img/.test(r.url())) seen.push(pagePath(r.url()));
  });
  return seen;
}

const toEnd = (page: Page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

/** The first chapter of a book whose next one is free (or priced), as the catalogue says. */
async function pairOf(page: Page, bookId: number, nextPriced: boolean) {
  const detail = await bookDetail(page.request, bookId);
  const list = detail.chapterList;
  const i = list.findIndex(
    (c, k) => c.price === 0 && (list[k + 1]?.price ?? 0) > 0 === nextPriced && list[k + 1],
  );
  const [current, next] = [list[i], list[i + 1]];
  if (!current || !next) throw new Error(`book ${bookId} has no such pair of chapters`);
  return { current: current.number, next: next.number };
}

test('near a chapter’s end the next free chapter’s first pages are fetched ahead, and open without asking again', async ({
  page,
}) => {
  await openAsVisitor(page, '/home');
  const { current, next } = await pairOf(page, 1, false);
  const nextInfo = await apiData<ChapterInfo>(page.request, `/api/book/read_chapter?bookId=1&number=${next}`);
  const seen = imageRequests(page);
  const chapterCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/book/read_chapter'))
      chapterCalls.push(new URL(r.url()).searchParams.get('number') ?? '');
  });
  await page.goto(`/book/read/1/${current}?title=x`);
  await expectReaderStarted(page);
  await expect(page.locator('.reader-page-img').first()).toBeVisible();
  expect(seen.filter((p) => nextInfo.bookPics.includes(p))).toEqual([]);

  await toEnd(page);
  await expect.poll(() => seen.filter((p) => nextInfo.bookPics.includes(p)).length).toBe(3);
  expect(seen).toEqual(expect.arrayContaining(nextInfo.bookPics.slice(0, 3)));
  expect(chapterCalls).toEqual([String(current), String(next)]);

  await page.locator('.reader-end-next').click();
  await expect(page).toHaveURL(new RegExp(`/book/read/1/${next}\\?`));
  await expect(page.locator('.reader-page-img').first()).toBeVisible();
  // Opened from what was fetched ahead: the chapter is not asked again.
  expect(chapterCalls).toEqual([String(current), String(next)]);
});

test('a next chapter that must be bought is asked about, but none of its pages is fetched', async ({
  page,
}) => {
  await openAsVisitor(page, '/home');
  const detail = await bookDetail(page.request, 3);
  const { current, next } = await pairOf(page, 3, true);
  const seen = imageRequests(page);
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/book/read_chapter') && r.url().includes(`number=${next}`),
  );
  await page.goto(`/book/read/3/${current}?title=x`);
  await expectReaderStarted(page);
  await expect(page.locator('.reader-page-img').first()).toBeVisible();
  const currentPages = await page
    .locator('.reader-page-img')
    .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  await toEnd(page);
  expect((await (await answered).json()).code).toBe(999);
  await page.waitForTimeout(500);
  const ours = new Set(currentPages.map(pagePath));
  // Chapter pages only (the home screen's ads and covers may still be arriving).
  expect(seen.filter((p) => p.startsWith('pages/') && !ours.has(p))).toEqual([]);
  expect(seen.some((p) => ours.has(p))).toBe(true);
  expect(detail.chapterList.find((c) => c.number === next)?.price).toBeGreaterThan(0);
});

test('on a save-data connection only the next chapter’s first page is fetched ahead', async ({ device }) => {
  const page = await device();
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } });
  });
  await openAsVisitor(page, '/home');
  const { current, next } = await pairOf(page, 1, false);
  const nextInfo = await apiData<ChapterInfo>(page.request, `/api/book/read_chapter?bookId=1&number=${next}`);
  const seen = imageRequests(page);
  await page.goto(`/book/read/1/${current}?title=x`);
  await expectReaderStarted(page);
  await expect(page.locator('.reader-page-img').first()).toBeVisible();
  await toEnd(page);
  await expect.poll(() => seen.filter((p) => nextInfo.bookPics.includes(p)).length).toBe(1);
  await page.waitForTimeout(500);
  expect(seen.filter((p) => nextInfo.bookPics.includes(p))).toEqual([nextInfo.bookPics[0]]);
});
