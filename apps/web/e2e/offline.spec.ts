import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { payInSandbox } from './pay.ts';
import {
  expectImageLoaded,
  expectReaderStarted,
  openAsVisitor,
  seedShelf,
  settledShot,
  storedShelf,
} from './support.ts';

// Offline re-reading (docs/decisions.md, "Offline re-reading"): the service worker keeps the app shell and what a
// reader has read. Chapters read before open with the network off; reopening one fetches no page image at all.

const OFFLINE_NOTICE = '网络已断开，正在离线阅读';
const NEEDS_NETWORK = '本话为付费章节，需要联网阅读';

const readerUrl = (bookId: number, number: number, title = 'x') =>
  `/book/read/${bookId}/${number}?title=${encodeURIComponent(title)}`;
const pages = (page: Page) => page.locator('.reader-page-img');
const isPageImage = (url: string) => /\/pages\/.+_\d+_0\.img$/.test(new URL(url).pathname);

/** The service worker controls the page (it registers 6 s after the page's load, when the browser is idle). */
async function waitForWorker(page: Page) {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30_000 });
}

/** A page image's path without its grant and width: the same page whatever grant its address carries. */
const pagePath = (url: string) =>
  new URL(url).pathname.replace(/^\/g\/\d+\/[^/]+/, '').replace(/_\d+_0\.img$/, '');

/** The pages of the chapter on screen. */
const shownPages = async (page: Page) =>
  new Set(
    (await pages(page).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src))).map(pagePath),
  );

/**
 * Page images that reach the network: those the service worker fetches (Chromium reports its requests on the
 * context), and any the page fetched without it. Answers from the worker's cache are not counted. `of` counts
 * those of one chapter's pages (the reader also fetches the next chapter's first pages ahead near the end).
 */
function countPageImageFetches(context: BrowserContext) {
  const fetched: string[] = [];
  context.on('request', (r) => {
    if (r.serviceWorker() && isPageImage(r.url())) fetched.push(r.url());
  });
  context.on('response', (r) => {
    if (!r.request().serviceWorker() && !r.fromServiceWorker() && isPageImage(r.url())) fetched.push(r.url());
  });
  return {
    of: (paths: Set<string>) => fetched.filter((url) => paths.has(pagePath(url))).length,
    reset() {
      fetched.length = 0;
    },
  };
}

/** Every page of the chapter on screen has loaded (the lazy ones scrolled to). */
async function expectAllPagesLoaded(page: Page) {
  await expectReaderStarted(page);
  await expect(pages(page).first()).toBeVisible();
  const all = await pages(page).all();
  expect(all.length).toBeGreaterThan(0);
  for (const img of all) {
    await img.scrollIntoViewIfNeeded();
    await expectImageLoaded(img);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** A book with a free chapter and at least two priced ones. */
async function bookWithFreeAndPriced(request: APIRequestContext) {
  for (let bookId = 1; bookId <= 64; bookId++) {
    const detail = await bookDetail(request, bookId);
    const free = detail.chapterList.find((c) => c.price === 0);
    const priced = detail.chapterList.filter((c) => c.price > 0);
    if (free && priced.length >= 2) return { detail, free, bought: priced[0], notOwned: priced[1] };
  }
  throw new Error('the demo library has a book with a free chapter and two priced ones');
}

test('chapters read before open offline; reopening one fetches no page image; shelf and history work', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await openAsVisitor(page, '/home');
  await waitForWorker(page);
  await payInSandbox(page, 'coin'); // through pay apply and the sandbox cashier, which the worker leaves alone
  const { detail, free, bought, notOwned } = await bookWithFreeAndPriced(page.request);
  if (!bought || !notOwned) throw new Error('two priced chapters');
  const bookId = detail.book.bookId;
  const open = (number: number) => page.goto(readerUrl(bookId, number, detail.book.title));
  const fetches = countPageImageFetches(context);

  // Read a free chapter and buy a priced one, online.
  await open(free.number);
  await expectAllPagesLoaded(page);
  expect(fetches.of(await shownPages(page)), 'the first reading fetches the pages').toBeGreaterThan(0);
  await open(bought.number);
  await page.locator('.reader-pay-buy').getByRole('button', { name: '购买本章节' }).click();
  await expectAllPagesLoaded(page);
  await expect(pages(page).first()).toHaveAttribute('src', /\/g\/\d+\/[A-Za-z0-9_-]{22}\/pages\//);
  expect(fetches.of(await shownPages(page)), 'the bought pages come from the network').toBeGreaterThan(0);

  // Reopened online: every page from the worker's cache, none from the network.
  for (const number of [free.number, bought.number]) {
    fetches.reset();
    await open(number);
    await expectAllPagesLoaded(page);
    expect(fetches.of(await shownPages(page)), `page images fetched reopening chapter ${number} online`).toBe(
      0,
    );
  }
  await seedShelf(page, { ...(await storedShelf(page)), favourites: [detail.book] });
  await page.goto('/shelf');
  await expect(page.getByRole('list', { name: '我的收藏' }).locator('.cover img')).toHaveCount(1);

  // The network goes away.
  await context.setOffline(true);
  fetches.reset();
  await open(free.number);
  await expectAllPagesLoaded(page);
  expect(fetches.of(await shownPages(page)), 'page images fetched offline').toBe(0);
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_NOTICE })).toBeVisible();
  await settledShot(page, 'offline-reading');
  await page.reload();
  await expectAllPagesLoaded(page);
  fetches.reset();
  await open(bought.number);
  await expectAllPagesLoaded(page);
  expect(fetches.of(await shownPages(page)), 'page images fetched offline').toBe(0);

  // A priced chapter never opened while owned is not on the phone: it needs the network.
  await open(notOwned.number);
  await expect(page.getByText(NEEDS_NETWORK)).toBeVisible();
  await expect(pages(page)).toHaveCount(0);
  await settledShot(page, 'offline-needs-network');

  // The shelf and the history are this phone's own.
  await page.goto('/shelf');
  const favourites = page.getByRole('list', { name: '我的收藏' });
  await expect(favourites.getByText(detail.book.title)).toBeVisible();
  await expectImageLoaded(favourites.locator('.cover img').first());
  await page.getByRole('tab', { name: '阅读历史' }).click();
  await expect(page.getByRole('list', { name: '阅读历史' }).getByText(detail.book.title)).toBeVisible();
  await expect(page.getByText(OFFLINE_NOTICE)).toBeVisible();
  await settledShot(page, 'offline-history');

  // Back online, the notice goes and the chapter not owned asks to be bought again.
  await context.setOffline(false);
  await expect(page.getByText(OFFLINE_NOTICE)).toBeHidden();
  await open(notOwned.number);
  await expect(page.locator('.reader-pay-buy').getByRole('button', { name: '购买本章节' })).toBeVisible();
});

test('chapter answers are kept per account, and only readable ones', async ({ page }) => {
  const { userInfo } = await openAsVisitor(page, '/home');
  await waitForWorker(page);
  await page.goto(readerUrl(1, 1));
  await expectAllPagesLoaded(page);
  const keys = () =>
    page.evaluate(async () => (await (await caches.open('ym-chapters')).keys()).map((r) => r.url));
  // This chapter, and any the reader fetched ahead (the next one, near the end), all under this account.
  await expect
    .poll(keys)
    .toContainEqual(expect.stringContaining(`bookId=1&number=1&user=${userInfo.userId}`));
  for (const key of await keys())
    expect(key).toMatch(new RegExp(`\\?bookId=1&number=\\d+&user=${userInfo.userId}$`));
  // Nothing of the console, payments or personal calls is kept anywhere, and index.html is not precached.
  const kept = await page.evaluate(async () => {
    const all: { cache: string; path: string }[] = [];
    for (const cache of await caches.keys())
      for (const r of await (await caches.open(cache)).keys())
        all.push({ cache, path: new URL(r.url).pathname });
    return all;
  });
  const personal = /^\/(admin|api\/admin|api\/user|api\/pay|h5\/pay|sandbox-pay)/;
  expect(kept.filter((k) => personal.test(k.path))).toEqual([]);
  expect(kept.filter((k) => k.path === '/index.html')).toEqual([{ cache: 'ym-shell', path: '/index.html' }]);
  expect(kept.filter((k) => k.cache.startsWith('workbox-precache')).length).toBeGreaterThan(20);

  // Another account on this phone (a login): the first one's chapter answers go.
  const other = await (
    await page.request.post('/api/user/register', { headers: { 'x-trace-id': '' } })
  ).json();
  await page.evaluate(
    ({ user }) => {
      const stored = JSON.parse(localStorage.getItem('ym-user') ?? '{}');
      stored.state.userInfo = user;
      localStorage.setItem('ym-user', JSON.stringify(stored));
    },
    { user: other.data },
  );
  await page.goto('/home');
  await waitForWorker(page);
  await expect.poll(keys).toEqual([]);
});

test('the worker, the manifest and the icons leave the first screen alone: 6 s after the load', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/(sw\.js|manifest\.webmanifest|icon-192\.png|apple-touch-icon\.png)/.test(r.url()))
      asked.push(r.url());
  });
  await page.goto('/home');
  const loadedAt = Date.now();
  await expectImageLoaded(page.getByTestId('home-recommend').locator('.cover img').first());
  // Three seconds after the load, halfway through the wait: nothing of the worker asked for, nothing registered.
  await page.waitForTimeout(Math.max(0, 3000 - (Date.now() - loadedAt)));
  expect(asked).toEqual([]);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  await waitForWorker(page);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(1);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
});

test('the app is installable: manifest, icons, and the branch in its start address', async ({
  page,
  request,
}) => {
  // The links come with the worker after the page's load (src/pwa/register.ts), not beside the first picture.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/(manifest\.webmanifest|icon-192\.png|apple-touch-icon\.png|favicon\.ico)/.test(r.url()))
      asked.push(r.url());
  });
  await page.goto('/home?tgId=7', { waitUntil: 'domcontentloaded' });
  const askedBeforeTheCode = [...asked];
  // 6 s after the load: a CI machine's load may itself take a while.
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest?tgId=7', {
    timeout: 30_000,
  });
  expect(askedBeforeTheCode).toEqual([]);
  const served = await (await request.get('/home')).text();
  expect(served).not.toMatch(/rel="(manifest|apple-touch-icon)"/);
  expect(served).toContain('<link rel="icon" href="data:," />');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/icon-192.png');
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/apple-touch-icon.png');
  expect(asked.some((u) => u.endsWith('/favicon.ico'))).toBe(false);
  const res = await request.get('/manifest.webmanifest?tgId=7');
  expect(res.headers()['content-type']).toContain('application/manifest+json');
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: '阅漫',
    short_name: '阅漫',
    id: '/home',
    start_url: '/home?tgId=7',
    scope: '/',
    display: 'standalone',
    theme_color: '#ff6b81',
    background_color: '#ff6b81',
  });
  expect((await (await request.get('/manifest.webmanifest')).json()).start_url).toBe('/home');
  const purposes = new Set<string>();
  for (const icon of manifest.icons as { src: string; sizes: string; type: string; purpose: string }[]) {
    const png = await request.get(icon.src);
    expect(png.status(), icon.src).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    const body = await png.body();
    // PNG's IHDR: width and height at bytes 16 and 20.
    expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    purposes.add(icon.purpose);
  }
  expect([...purposes].sort()).toEqual(['any', 'maskable']);
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(
    expect.arrayContaining(['192x192', '512x512']),
  );

  // The worker: at the root, never kept by a cache.
  const sw = await request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['cache-control']).toBe('no-cache');
  await waitForWorker(page);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(
    new URL('/', page.url()).href,
  );
});
