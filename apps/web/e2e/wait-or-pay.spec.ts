import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
import type { BookDetail } from '@yueman/contract';
import { bookDetail, userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { payInSandbox } from './pay.ts';
import { openAsVisitor, settledShot } from './support.ts';

// Wait or pay, as a new reader meets it on a phone: the free chapters, the buy prompt, a 1-minute wait waited out,
// a chapter unlocked free (租借中 in the list), a ticket an operator granted, coins for an early-access chapter,
// and the rest bought as a bundle. The book's rules and the ticket come through the console's own calls: an
// editor sets the rules, finance grants the ticket, each an operator made as production makes one (the operator
// command beside the running server) and signed in through the console's login.

const port = ownPort(21);
const origin = `http://127.0.0.1:${port}`;
const root = new URL('../../..', import.meta.url).pathname;
test.use({ baseURL: origin });

let server: OwnServer;
const dataDir = mkdtempSync(path.join(tmpdir(), 'yueman-e2e-wait-or-pay-'));

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * An operator of `role`, made by `npm run operator -- add` beside this spec's server (its DATA_DIR's socket), signed
 * in through POST /api/admin/login: a request context of its own holding the console session, sending our origin
 * as the console's pages do (a console write without it is refused).
 */
async function operator(
  playwright: PlaywrightWorkerArgs['playwright'],
  role: 'editor' | 'finance',
): Promise<APIRequestContext> {
  const name = `e2e-${role}-${Date.now().toString(36)}`;
  const { stdout, stderr } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'operator', '--', 'add', name, '--role', role],
    { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, timeout: 120_000 },
  );
  const password = /password: (\S+)/.exec(`${stdout}\n${stderr}`)?.[1];
  if (!password) throw new Error(`npm run operator printed no password:\n${stdout}\n${stderr}`);
  const api = await playwright.request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  await consoleCall(api, '/api/admin/login', { name, password });
  return api;
}

/** A console write: answered 200 with result true in the envelope; its data. */
async function consoleCall<T>(api: APIRequestContext, url: string, data: object): Promise<T> {
  const res = await api.post(url, { data });
  const body = (await res.json()) as { result: boolean; msg: string; data: T };
  expect(res.status(), `${url}: ${body.msg}`).toBe(200);
  expect(body.result, `${url}: ${body.msg}`).toBe(true);
  return body.data;
}

/** A demo book whose first chapter is free and which has at least five priced chapters. */
async function bookWithPricedChapters(page: import('@playwright/test').Page): Promise<BookDetail> {
  for (let bookId = 1; bookId <= 64; bookId++) {
    const detail = await bookDetail(page.request, bookId);
    if (detail.chapterList[0]?.price === 0 && detail.chapterList.filter((c) => c.price > 0).length >= 5)
      return detail;
  }
  throw new Error('no demo book with a free first chapter and five priced ones');
}

const readerUrl = (bookId: number, number: number) => `/book/read/${bookId}/${number}?title=x`;

test('a new reader waits, unlocks free, rents, spends a granted ticket, pays for early access and buys the rest as a bundle', async ({
  page,
  playwright,
}) => {
  // One real minute is waited out.
  test.setTimeout(420_000);
  server = await startOwnServer({ port, name: 'wait-or-pay', dataDir });
  const visitor = await openAsVisitor(page, '/home');
  const detail = await bookWithPricedChapters(page);
  const { bookId } = detail.book;
  const priced = detail.chapterList.filter((c) => c.price > 0);
  const last = detail.chapterList.at(-1);
  if (!last) throw new Error('a book with chapters');
  const [p1, p2, p3] = priced as [(typeof priced)[0], (typeof priced)[0], (typeof priced)[0]];

  // The console: an editor gives the book a 1-minute wait, the newest chapter as early access and a 20% bundle;
  // finance grants the reader one reading ticket, with its reason.
  const editor = await operator(playwright, 'editor');
  const finance = await operator(playwright, 'finance');
  const rules = await consoleCall<{ bookId: number }>(editor, `/api/admin/books/${bookId}/unlock-rules`, {
    waitFree: { waitMinutes: 1, rentalHours: 72, newReaderExtra: 0 },
    earlyAccessChapters: 1,
    bundlePercent: 20,
  });
  expect(rules.bookId).toBe(bookId);
  const granted = await consoleCall<{ count: number; usable: number }>(
    finance,
    `/api/admin/readers/${visitor.userInfo.userId}/tickets`,
    {
      kind: 'read',
      count: 1,
      expiresInDays: 7,
      scope: null,
      rentalHours: null,
      reason: '读者关怀',
      requestId: `e2e-wait-or-pay-${Date.now()}`,
    },
  );
  expect(granted).toMatchObject({ count: 1, usable: 1 });
  await editor.dispose();
  await finance.dispose();

  // The detail page says the book's wait; the free chapter reads.
  await page.goto(`/book/${bookId}`);
  await expect(page.getByText('每1分钟可免费看一话')).toBeVisible();
  await expect(page.getByText('现在就可以免费看一话')).toBeVisible();
  await settledShot(page, 'wait-or-pay-detail');
  await page.goto(readerUrl(bookId, 1));
  await expect(page.locator('.reader-page-img').first()).toBeVisible();

  // The first priced chapter: the prompt offers the ticket first, then wait-for-free (ready), then coins.
  await page.goto(readerUrl(bookId, p1.number));
  const prompt = page.locator('.reader-pay-buy');
  await expect(prompt.getByText('阅读券')).toBeVisible();
  await expect(prompt.getByText('剩1张')).toBeVisible();
  await expect(prompt.getByRole('button', { name: '免费解锁' })).toBeVisible();
  await settledShot(page, 'wait-or-pay-prompt');
  await prompt.getByRole('button', { name: '免费解锁' }).click();
  await expect(page.locator('.reader-page-img').first()).toBeVisible();

  // The next one: the wait has restarted; wait it out (one real minute), then unlock it free.
  await page.goto(readerUrl(bookId, p2.number));
  await expect(prompt.getByRole('button', { name: '等待中' })).toBeDisabled();
  await expect(prompt.getByText(/还需/)).toBeVisible();
  await settledShot(page, 'wait-or-pay-waiting');
  await expect(prompt.getByRole('button', { name: '免费解锁' })).toBeVisible({ timeout: 100_000 });
  await prompt.getByRole('button', { name: '免费解锁' }).click();
  await expect(page.locator('.reader-page-img').first()).toBeVisible();

  // The catalogue marks both as rented, with the time left; the early-access one as 抢先.
  await page.goto(`/book/${bookId}/catalog?title=x`);
  const rows = page.locator('.chapter-row');
  await expect(rows.nth(p1.number - 1)).toContainText(/租借中 7[12]小时/);
  await expect(rows.nth(p2.number - 1)).toContainText('租借中');
  await expect(rows.nth(p3.number - 1)).toContainText('券');
  await expect(rows.last()).toContainText('抢先');
  await settledShot(page, 'wait-or-pay-catalog');

  // The ticket opens the third.
  await page.goto(readerUrl(bookId, p3.number));
  await prompt.getByRole('button', { name: '用券解锁' }).click();
  await expect(page.locator('.reader-page-img').first()).toBeVisible();

  // Early access: no wait, no read ticket; coins only.
  await payInSandbox(page, 'coin');
  await page.goto(readerUrl(bookId, last.number));
  await expect(prompt.getByText('本话为抢先看章节，可用阅币或抢先券解锁')).toBeVisible();
  await expect(prompt.getByText('等就免费')).toHaveCount(0);
  await settledShot(page, 'wait-or-pay-early');
  await prompt.getByRole('button', { name: '购买本章节' }).click();
  await expect(page.locator('.reader-page-img').first()).toBeVisible();

  // The account centre: the spent ticket, said so.
  await page.goto('/user/tickets');
  await expect(page.getByTestId('tickets')).toContainText('已使用');
  await settledShot(page, 'wait-or-pay-tickets');

  // 360 pixels wide from here: the list and the prompt still fit.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/book/${bookId}/catalog?title=x`);
  await expect(rows.first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await settledShot(page, 'wait-or-pay-catalog-360');

  // The rest as a bundle: every priced chapter not held (the rented, the ticket's and the early one are), at 20%
  // off, what it saves said; the coins are charged once, and every one of them is then 已购.
  const rest = priced.filter(
    (c) => ![p1.chapterId, p2.chapterId, p3.chapterId, last.chapterId].includes(c.chapterId),
  );
  const full = rest.reduce((sum, c) => sum + c.price, 0);
  const price = Math.floor((full * 80) / 100);
  if ((await userInfo(page)).avaliableAmount < price) await payInSandbox(page, 'coin');
  const balance = (await userInfo(page)).avaliableAmount;
  const [first] = rest;
  if (!first) throw new Error('a book with chapters left for the bundle');
  await page.goto(readerUrl(bookId, first.number));
  await expect(prompt.getByText(`打包购买剩余${rest.length}话`)).toBeVisible();
  await expect(prompt.getByText(`${price}阅币 · 省${full - price}阅币`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await settledShot(page, 'wait-or-pay-bundle-360');
  await prompt.getByRole('button', { name: '打包购买' }).click();
  await expect(page.locator('.reader-page-img').first()).toBeVisible();
  await expect.poll(async () => (await userInfo(page)).avaliableAmount).toBe(balance - price);
  const records = await page.request.get('/api/user/consumption');
  const spent = ((await records.json()) as { data: { list: { coins: number }[] } }).data.list.filter(
    (r) => r.coins < 0,
  );
  expect(spent.filter((r) => r.coins === -price)).toHaveLength(1);

  await page.goto(`/book/${bookId}/catalog?title=x`);
  for (const c of rest) await expect(rows.nth(c.number - 1)).toContainText('已购');
  await expect(rows.nth(p1.number - 1)).toContainText('租借中');
  await expect(rows.last()).toContainText('已购');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // The picture shows the bundle's chapters, below the rented ones.
  await rows.nth(first.number - 1).scrollIntoViewIfNeeded();
  await settledShot(page, 'wait-or-pay-bundled-360');
});
