import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { BookDetail } from '@yueman/contract';
import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { type OwnServer, ownPort, startOwnServer } from './own-server.ts';
import { payInSandbox } from './pay.ts';
import { openAsVisitor, settledShot } from './support.ts';

// Wait or pay, as a new reader meets it on a phone: the free chapters, the buy prompt, a 1-minute wait waited out,
// a chapter unlocked free (租借中 in the list), a ticket an operator granted, coins for an early-access chapter.
// The book's rules and the ticket are written into the database while this spec's own server is stopped: the
// console's calls for them are not used here (the embedded database takes one process at a time).

const port = ownPort(21);
const origin = `http://127.0.0.1:${port}`;
test.use({ baseURL: origin });

let server: OwnServer;
const dataDir = mkdtempSync(path.join(tmpdir(), 'yueman-e2e-wait-or-pay-'));
const start = async () => {
  server = await startOwnServer({ port, name: 'wait-or-pay', dataDir });
};

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Writes into the stopped server's database, then starts it again on the same data. */
async function withDatabase(sql: string) {
  await server.stop();
  const db = new PGlite({ dataDir: path.join(dataDir, 'pglite') });
  try {
    await db.exec(sql);
  } finally {
    await db.close();
  }
  await start();
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

test('a new reader waits, unlocks free, rents, spends a ticket and pays coins for early access', async ({
  page,
}) => {
  // Its own server starts twice (demo library, then again on the same data), and one real minute is waited out.
  test.setTimeout(420_000);
  await start();
  const visitor = await openAsVisitor(page, '/home');
  const detail = await bookWithPricedChapters(page);
  const { bookId } = detail.book;
  const priced = detail.chapterList.filter((c) => c.price > 0);
  const last = detail.chapterList.at(-1);
  if (!last) throw new Error('a book with chapters');
  const [p1, p2, p3] = priced as [(typeof priced)[0], (typeof priced)[0], (typeof priced)[0]];
  await withDatabase(`
    insert into book_unlock_rules (book_id, wait_minutes, rental_hours, early_access_chapters)
      values (${bookId}, 1, 72, 1);
    insert into reading_tickets (grant_id, user_id, kind, source, reason, expires_at)
      values ('e2e:wait-or-pay', ${visitor.userInfo.userId}, 'read', 'grant', '读者关怀', now() + interval '7 days');`);

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

  // 360 pixels wide: the list and the prompt still fit.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/book/${bookId}/catalog?title=x`);
  await expect(rows.first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await settledShot(page, 'wait-or-pay-catalog-360');
  await page.goto(readerUrl(bookId, priced[3]?.number ?? last.number));
  await expect(prompt).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await settledShot(page, 'wait-or-pay-prompt-360');
});
