import type { Page, Route } from '@playwright/test';
import type { BookDetail } from '@yueman/contract';
import { apiData } from './api.ts';
import { expect, test } from './fixtures.ts';
import { expectImageLoaded, expectReaderStarted, openAsVisitor, shot } from './support.ts';

// A page image on a slow link (7–12 s per page on a busy demo server): until it arrives its
// box, of the page's size, shows the page's number and a spinner; a page that fails says so and 点击重试 asks for it
// again (components/chapter-pages.tsx).

// The page's own requests: a service worker's answers would pass by page.route.
test.use({ serviceWorkers: 'block' });

interface Chapter {
  bookPics: string[];
  bookPicSizes: { width: number; height: number }[];
  picSplitCount: number;
}

const row = (page: Page, index: number) => page.locator(`.reader-page-row[data-page="${index}"]`);

test('a page on its way shows its number and a spinner in its own box; a failed one offers 点击重试', async ({
  page,
}) => {
  const chapter: Chapter = (await (await page.request.get('/api/book/read_chapter?bookId=1&number=1')).json())
    .data;
  const n = Math.max(1, chapter.picSplitCount || 1);
  // The first slice of pages 1 and 2 (a page's slices come together, picSplitCount at a time).
  const [first = '', second = ''] = [0, n].map((i) => `/${chapter.bookPics[i]}_1000_0.img`);
  // The image host makes an image's width on its first request (seconds on a busy machine): made here, as a CDN
  // would have it, so that what the test times is the route's hold, not the drawing.
  for (const path of [first, second]) expect((await page.request.get(path)).status()).toBe(200);
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  let secondFails = true;
  let secondAsked = 0;
  await page.route(
    (url) => url.pathname === first || url.pathname === second,
    async (route: Route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === first) {
        await firstHeld;
        await route.continue().catch(() => undefined);
        return;
      }
      secondAsked++;
      await (secondFails ? route.abort('connectionreset') : route.continue()).catch(() => undefined);
    },
  );

  await openAsVisitor(page, '/home');
  await page.goto('/book/1');
  await page.getByRole('button', { name: '开始阅读' }).click();
  await expectReaderStarted(page);

  // Page 1 is on its way: its box has the page's shape, with its number and a spinner over it.
  const wait = row(page, 0).getByTestId('page-wait');
  await expect(wait).toBeVisible();
  await expect(wait.locator('.reader-page-no')).toHaveText('1');
  await expect(wait.locator('.reader-spinner')).toBeVisible();
  const box = await row(page, 0).boundingBox();
  const size = chapter.bookPicSizes[0] ?? { width: 0, height: 0 };
  expect(box?.width).toBeGreaterThan(380);
  // n slices side by side: the page is n slices wide and one slice high.
  expect(Math.abs((box?.height ?? 0) - ((box?.width ?? 0) * size.height) / (size.width * n))).toBeLessThan(2);
  // The spinner turns (not a still picture).
  expect(
    await wait
      .locator('.reader-spinner')
      .evaluate((el) => el.getAnimations().some((a) => a.playState === 'running')),
  ).toBe(true);

  // Page 2 failed: it says so, and offers 点击重试.
  const retry = row(page, 1).getByRole('button', { name: /第2页加载失败.*点击重试/ });
  await expect(retry).toBeAttached();
  await shot(page, 'reader-page-loading');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.clientHeight * 0.9));
  await expect(retry).toBeInViewport();
  await shot(page, 'reader-page-failed');

  // Page 1 arrives: its number and spinner go, the picture shows.
  releaseFirst();
  await expectImageLoaded(row(page, 0).locator('.reader-page-img').first());
  await expect(wait).toHaveCount(0);

  // 点击重试 asks for page 2 again (and is only that: the menus stay as they were).
  const menus = await page.locator('.reader-top').getAttribute('class');
  const asked = secondAsked;
  secondFails = false;
  await retry.click();
  await expectImageLoaded(row(page, 1).locator('.reader-page-img').first());
  expect(secondAsked).toBeGreaterThan(asked);
  await expect(row(page, 1).getByRole('button')).toHaveCount(0);
  await expect(row(page, 1).getByTestId('page-wait')).toHaveCount(0);
  await expect(page.locator('.reader-top')).toHaveAttribute('class', menus ?? '');
});

// index.html asks for a landing screen's chunks and React's renderer beside the main bundle (vite.config.ts, landingChunks): without them
// the screen's code is asked for only once the bundle has run, a round trip later on a slow link (the reader's list
// was once empty: its chunk has no facade module).
test('a landing screen’s code is asked for with the main bundle, not after it has run', async ({ page }) => {
  await openAsVisitor(page, '/home');
  const detail = await apiData<BookDetail>(page.request, '/api/book/detail/1');
  const first = detail.chapterList.find((c) => c.price === 0);
  for (const [path, prefix] of [
    ['/home', 'home-page-'],
    ['/book/1', 'book-page-'],
    [`/book/read/1/${first?.number}`, 'reader-page-'],
  ] as const) {
    await page.goto(path);
    const timing = () =>
      page.evaluate((screen) => {
        const main = /import\("(\/assets\/[^"]+\.js)"\)/.exec(document.documentElement.innerHTML)?.[1];
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const at = (part: string | undefined) =>
          part ? entries.find((e) => e.name.includes(part)) : undefined;
        return {
          mainEnd: at(main)?.responseEnd,
          screenStart: at(`/assets/${screen}`)?.startTime,
          // React's renderer, which main.tsx loads in a step of its own (Rollup names its chunk after client.js).
          rendererStart: at('/assets/client-')?.startTime,
        };
      }, prefix);
    await expect.poll(async () => (await timing()).screenStart, { message: path }).toBeGreaterThan(0);
    const { mainEnd, screenStart, rendererStart } = await timing();
    expect(screenStart, path).toBeLessThan(mainEnd ?? 0);
    expect(rendererStart, `${path}: React's renderer`).toBeLessThan(mainEnd ?? 0);
  }
});
