import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Book } from '@yueman/contract';
import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { expectReaderStarted, openAsVisitor, PC, seedShelf, shot, WECHAT } from './support.ts';

// Every reader screen, as a visitor at the phone viewport, analysed by axe-core against WCAG 2.0/2.1 A and AA:
// no serious or critical violation (docs/decisions.md, Accessibility). And the tab bar works with a keyboard.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Waits for the screen to settle: no skeleton left, CSS animations finished, antd-mobile's JS springs given time. */
async function settle(page: Page) {
  await expect(page.locator('.adm-skeleton')).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.waitForTimeout(600);
}

/**
 * Runs axe on the settled screen and fails with every serious or critical violation's id, targets and help; saves
 * a screenshot `a11y-<name>` to look at the colours the analysis asked for.
 */
async function expectAccessible(page: Page, name: string) {
  await settle(page);
  await shot(page, `a11y-${name}`);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}\n${v.nodes
          .map((n) => `    ${n.target.join(' ')}  ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`)
          .join('\n')}`,
    )
    .join('\n');
  expect(bad, `accessibility violations on ${page.url()}:\n${report}`).toEqual([]);
}

async function findBook(request: APIRequestContext, priced: boolean) {
  for (let bookId = 1; bookId <= 64; bookId++) {
    const detail = await bookDetail(request, bookId);
    const chapter = detail.chapterList.find((c) => (priced ? c.price > 0 : c.price === 0));
    if (chapter) return { detail, chapter };
  }
  throw new Error(`no book with a ${priced ? 'priced' : 'free'} chapter`);
}

const LISTS = ['recommend', 'new', 'latest', 'kkbg', 'ranked', 'new-on'];

test.describe('no serious or critical axe violation', () => {
  test('home', async ({ page }) => {
    await openAsVisitor(page, '/home');
    await expect(page.locator('.book-cover, img').first()).toBeVisible();
    await expectAccessible(page, 'home');
  });

  for (const list of LISTS) {
    test(`/home/${list}`, async ({ page }) => {
      await openAsVisitor(page, `/home/${list}`);
      await expect(page.locator('img').first()).toBeVisible();
      await expectAccessible(page, `list-${list}`);
    });
  }

  test('category', async ({ page }) => {
    await openAsVisitor(page, '/category');
    await expect(page.locator('img').first()).toBeVisible();
    await expectAccessible(page, 'category');
  });

  test('shelf, favourites and history, seeded', async ({ page }) => {
    await openAsVisitor(page, '/shelf');
    const books: Book[] = [];
    for (const id of [1, 2, 3]) books.push((await bookDetail(page.request, id)).book);
    await seedShelf(page, {
      favourites: books,
      history: books.map((bookInfo, i) => ({ bookInfo, number: i + 1, date: Date.now() - i * 60_000 })),
    });
    await expect(page.getByText(books[0]?.title ?? '').first()).toBeVisible();
    await expectAccessible(page, 'shelf-favourites');
    await page.getByRole('tab', { name: /历史/ }).click();
    await expect(page).toHaveURL(/active=history/);
    await expectAccessible(page, 'shelf-history');
  });

  test('user', async ({ page }) => {
    await openAsVisitor(page, '/user');
    await expect(page.getByText('充值', { exact: false }).first()).toBeVisible();
    await expectAccessible(page, 'user');
  });

  test('search, start and results', async ({ page }) => {
    await openAsVisitor(page, '/search');
    await expectAccessible(page, 'search-start');
    const name = (await bookDetail(page.request, 1)).book.title;
    await page.getByPlaceholder('书名或作者').fill(name);
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await expect(page).toHaveURL(/content=/);
    await expect(page.locator('img').first()).toBeVisible();
    await expectAccessible(page, 'search-results');
  });

  test('book detail and catalogue', async ({ page }) => {
    await openAsVisitor(page, '/book/1');
    await expect(page.locator('img').first()).toBeVisible();
    await expectAccessible(page, 'book');
    await page.goto('/book/1/catalog');
    await expect(page.getByText(/第\s*1\s*话|1/).first()).toBeVisible();
    await expectAccessible(page, 'catalog');
  });

  test('reader, a free chapter', async ({ page }) => {
    await openAsVisitor(page, '/home');
    const { detail, chapter } = await findBook(page.request, false);
    await page.goto(`/book/read/${detail.book.bookId}/${chapter.number}?title=x`);
    await expectReaderStarted(page);
    await expect(page.locator('.reader-page-img').first()).toBeVisible();
    await expectAccessible(page, 'reader');
  });

  test('reader, the buy overlay of a priced chapter', async ({ page }) => {
    await openAsVisitor(page, '/home');
    const { detail, chapter } = await findBook(page.request, true);
    await page.goto(`/book/read/${detail.book.bookId}/${chapter.number}?title=x`);
    await expect(page.locator('.reader-pay-buy')).toBeVisible();
    await expectAccessible(page, 'reader-buy');
  });

  test('purchase, the recharge centre and its channel sheet', async ({ page }) => {
    await openAsVisitor(page, '/purchase');
    await expect(page.locator('.pack').first()).toBeVisible();
    await expectAccessible(page, 'purchase');
    await page.getByRole('button', { name: '立即充值' }).click();
    await expect(page.locator('.channel-sheet')).toBeVisible();
    await expectAccessible(page, 'purchase-channels');
  });

  for (const [path, text] of [
    ['/user/login', '登录'],
    ['/user/bind', '绑定手机'],
    ['/user/password', '修改密码'],
    ['/user/find-account', '找回充值账号'],
    ['/user/purchase/history', '消费记录'],
    ['/h5/report', '投诉举报'],
  ] as const) {
    test(path, async ({ page }) => {
      await openAsVisitor(page, path);
      await expect(page.locator('.top-bar')).toContainText(text);
      await expectAccessible(page, path.slice(1).replaceAll('/', '-'));
    });
  }

  test('open-in-browser, in WeChat', async ({ device }) => {
    const page = await device(WECHAT);
    await page.goto('/book/1');
    await expect(page.locator('.oib-address')).toHaveText(/handoff/);
    await expectAccessible(page, 'open-in-browser');
  });

  test('pc page', async ({ device }) => {
    const page = await device(PC);
    await page.goto('/home');
    await expect(page.getByRole('img', { name: '阅漫手机版二维码' })).toBeVisible();
    await expectAccessible(page, 'pc');
  });

  test('the hand-off dialog', async ({ device }) => {
    const wechat = await device(WECHAT);
    await wechat.goto('/shelf');
    const address = wechat.locator('.oib-address');
    await expect(address).toHaveText(/\/handoff\?token=/);
    const link = (await address.textContent()) ?? '';
    const browser = await device();
    await openAsVisitor(browser, '/home');
    await browser.goto(link);
    await expect(browser.getByRole('dialog')).toContainText('将退出');
    await expectAccessible(browser, 'handoff');
  });
});

test('the tab bar works with the keyboard, with a visible focus', async ({ page }) => {
  await openAsVisitor(page, '/home');
  await settle(page);
  const tab = page.locator('.adm-tab-bar').getByRole('tab', { name: '分类' });
  await expect(tab).toBeVisible();
  let focused = false;
  for (let i = 0; i < 400 && !focused; i++) {
    await page.keyboard.press('Tab');
    focused = await tab.evaluate((el) => el === document.activeElement);
  }
  expect(focused, 'Tab reaches 分类 in the tab bar').toBe(true);
  const ring = await tab.evaluate((el) => {
    const style = getComputedStyle(el);
    return { visible: el.matches(':focus-visible'), outline: style.outlineStyle, shadow: style.boxShadow };
  });
  expect(ring.visible).toBe(true);
  expect(ring.outline !== 'none' || ring.shadow !== 'none', JSON.stringify(ring)).toBe(true);
  await shot(page, 'a11y-tab-bar-focus');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/category$/);
  await expect(tab).toHaveAttribute('aria-selected', 'true');
});

test('an inner screen’s top bar works with the keyboard: the first Tab reaches 返回, Enter goes back', async ({
  page,
}) => {
  await openAsVisitor(page, '/home');
  await settle(page);
  await page.getByTestId('home-recommend').locator('a[href^="/book/"]').first().click();
  await expect(page.getByRole('button', { name: '开始阅读' })).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const back = page.locator('.top-bar').getByRole('button', { name: '返回' });
  await expect(back).toBeFocused();
  expect(await back.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
  await shot(page, 'a11y-top-bar-back-focus');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/home$/);
});
