import type { HomeIndex } from '@yueman/contract';
import { apiData } from './api.ts';
import { expect, test } from './fixtures.ts';
import { expectImageLoaded, openAsVisitor, seedShelf, shot } from './support.ts';

const SECTIONS = [
  ['home-recommend', '推荐', '/home/recommend'],
  ['home-update', '每日更新', '/home/new'],
  ['home-latest', '新书', '/home/latest'],
  ['home-kkbg', '大咖', '/home/kkbg'],
  ['home-ranked', '人气排行', '/home/ranked'],
  ['home-new-on', '新书速递', '/home/new-on'],
] as const;

test('home shows the carousel, every section with books, and the banners for a new visitor', async ({
  page,
}) => {
  await openAsVisitor(page, '/home');
  const carousel = page.getByTestId('ad-carousel');
  await expect(carousel.locator('img').first()).toBeVisible();
  await expectImageLoaded(carousel.locator('img').first());
  await expect(page.getByRole('link', { name: '搜索' })).toHaveAttribute('href', '/search');
  for (const [testId, title, href] of SECTIONS) {
    const section = page.getByTestId(testId);
    await expect(section.getByRole('heading', { name: title, exact: true })).toBeVisible();
    await expect(section.locator('a[href^="/book/"]').first()).toBeVisible();
    await expect(section.getByRole('link', { name: `${title} 更多` })).toHaveAttribute('href', href);
  }
  await expect(page.getByTestId('home-kkbg').locator('.cover-horizontal').first()).toBeVisible();
  await expect(page.getByTestId('home-ranked').getByText('NO.1', { exact: true })).toHaveClass(/rank-hot/);
  // A new visitor is not VIP: the sales banner shows and leads to the recharge centre.
  await expect(page.getByText('开通VIP，海量漫画免费看')).toBeVisible();
  await expect(page.getByTestId('home-vip')).toHaveAttribute('href', '/purchase');
  await expect(page.getByRole('button', { name: '添加到桌面' })).toBeVisible();
  // The demo has no app: its download address is empty, so no 下载APP leads nowhere. The common
  // info has arrived once the service links show its QQ number.
  await expect(page.locator('.service-qq')).toBeVisible();
  await expect(page.getByTestId('home-download').getByRole('link', { name: '下载APP' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: '投诉举报' })).toBeVisible();
  // No history yet: no recent reading.
  await expect(page.getByTestId('home-recent')).toHaveCount(0);
  // Above-the-fold covers load at once.
  await expect(page.getByTestId('home-recommend').locator('.cover img')).toHaveCount(6);
  await shot(page, 'home');
  await page.getByTestId('home-kkbg').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('home-kkbg').locator('.cover img')).toHaveCount(5);
  await shot(page, 'home-sections');
  await page.getByTestId('home-download').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('home-new-on').locator('.cover img')).toHaveCount(6);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByTestId('home-ranked').locator('.cover img')).toHaveCount(3);
  await shot(page, 'home-bottom');
});

test('the carousel moves on by itself every 2.5 s, loops both ways, and a tap opens the ad', async ({
  page,
}) => {
  await page.goto('/home');
  const carousel = page.getByTestId('ad-carousel');
  const track = carousel.locator('.ad-track');
  const dots = carousel.locator('.ad-dots span');
  await expect(dots.first()).toHaveClass(/is-shown/);
  const count = await dots.count();
  expect(count).toBeGreaterThan(1);
  const position = () => track.evaluate((el) => Math.round(el.scrollLeft / el.clientWidth));
  await expect(dots.nth(0)).toHaveClass(/is-shown/);
  expect(await position()).toBe(1);
  await expect(dots.nth(1)).toHaveClass(/is-shown/, { timeout: 4000 });
  // A swipe ends with the finger lifted, which also restarts the 2.5 s wait.
  const swipeTo = (where: 'start' | 'end') =>
    track.evaluate((el, to) => {
      el.scrollTo({ left: to === 'start' ? 0 : el.scrollWidth, behavior: 'instant' });
      el.dispatchEvent(new Event('touchend'));
    }, where);
  // Back past the first ad: the copy of the last, then the last ad itself.
  await swipeTo('start');
  await expect(dots.nth(count - 1)).toHaveClass(/is-shown/);
  await expect.poll(position).toBe(count);
  // On past the last ad: the copy of the first, then the first ad itself.
  await swipeTo('end');
  await expect(dots.nth(0)).toHaveClass(/is-shown/);
  await expect.poll(position).toBe(1);
  const { adList: ads } = await apiData<HomeIndex>(page.request, '/api/book/home/index');
  // The demo library's first ad opens a book (jump type 2).
  expect(ads[0]?.jumpType).toBe(2);
  await carousel.locator('.ad-slide').first().click();
  await expect(page).toHaveURL(new RegExp(`/book/${ads[0]?.bizId}$`));
});

test("the carousel asks for an ad's picture when it is next, and for all of them once touched", async ({
  page,
}) => {
  const { adList: ads } = await apiData<HomeIndex>(page.request, '/api/book/home/index');
  expect(ads.length).toBeGreaterThan(4);
  const asked = new Set<string>();
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    const ad = ads.findIndex((a) => path.startsWith(`/${a.imgPath}_`));
    if (ad >= 0) asked.add(String(ad));
  });
  await page.goto('/home');
  const carousel = page.getByTestId('ad-carousel');
  const dots = carousel.locator('.ad-dots span');
  // The loop has started (its dots show): the first ad and the next one (and the one after, once the second
  // shows, 2.5 s in), no other.
  await expect(dots.first()).toHaveClass(/is-shown/);
  await expectImageLoaded(carousel.locator('.ad-slide:not([aria-hidden]) img').nth(1));
  expect(asked.has('0') && asked.has('1')).toBe(true);
  expect([...asked].filter((ad) => Number(ad) > 2)).toEqual([]);
  // The second ad shows: the third is asked for.
  await expect(dots.nth(1)).toHaveClass(/is-shown/, { timeout: 4000 });
  await expect.poll(() => asked.has('2')).toBe(true);
  expect(asked.has(String(ads.length - 1))).toBe(false);
  // A finger on it: every ad, the last too (a swipe back shows it next).
  await carousel.locator('.ad-track').dispatchEvent('touchstart');
  await expect.poll(() => asked.size).toBe(ads.length);
});

test('recent reading shows up to 3 history entries, linking to the chapter', async ({ page }) => {
  await openAsVisitor(page, '/home');
  const index = await apiData<HomeIndex>(page.request, '/api/book/home/index');
  const books = index.recommendList.slice(0, 4);
  await seedShelf(page, {
    favourites: [],
    history: books.map((bookInfo, i) => ({ bookInfo, number: i + 2, date: Date.now() - i })),
  });
  const recent = page.getByTestId('home-recent');
  await expect(recent.getByRole('heading', { name: '最近阅读' })).toBeVisible();
  await expect(recent.locator('a[href^="/book/read/"]')).toHaveCount(3);
  await expect(recent.locator('a[href^="/book/read/"]').first()).toHaveAttribute(
    'href',
    `/book/read/${books[0]?.bookId}/2`,
  );
  await recent.scrollIntoViewIfNeeded();
  await expect(recent.locator('.cover img')).toHaveCount(3);
  await shot(page, 'home-recent');
});

test('every more link opens its list, titled like its section', async ({ page }) => {
  await page.goto('/home');
  for (const [, title, href] of SECTIONS) {
    await page.getByRole('link', { name: `${title} 更多` }).click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.locator('.top-bar')).toContainText(title);
    await expect(page.getByTestId('list-item').first()).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/home$/);
  }
});
