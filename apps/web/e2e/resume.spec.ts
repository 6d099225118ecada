import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectReaderStarted, openAsVisitor, settledShot, storedUser } from './support.ts';

// Exact resume: the reader comes back to the page and the place within it where they stopped, on this device and,
// through the account, on another; 举报此页 names that page to the report form.

/** Scrolls so the top of the screen is `offset` of the way down page `n` (1-based) of the chapter on screen. */
async function scrollToPage(page: Page, n: number, offset: number) {
  await page.evaluate(
    ([n, offset]) => {
      const row = document.querySelectorAll<HTMLElement>('.reader-pages [data-page]')[n - 1];
      if (!row) throw new Error(`no page ${n}`);
      window.scrollTo(0, row.getBoundingClientRect().top + window.scrollY + offset * row.offsetHeight);
    },
    [n, offset] as const,
  );
}

/** The page at the top of the screen (1-based) and how far down it, as the reader computes it. */
const pageAtTop = (page: Page) =>
  page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('.reader-pages [data-page]'));
    const at = rows.findLastIndex((r) => r.getBoundingClientRect().top <= 1);
    const rect = rows[at]?.getBoundingClientRect();
    return { pageNumber: at + 1, offset: rect ? -rect.top / rect.height : 0 };
  });

/** This device's kept position for a book (local storage ym-progress). */
const keptPosition = (page: Page, bookId: number) =>
  page.evaluate(
    (id) => JSON.parse(localStorage.getItem('ym-progress') ?? '{}').state?.positions?.[id],
    bookId,
  );

async function openChapter(page: Page, path: string) {
  await page.goto(path);
  await expectReaderStarted(page);
  await expect(page.locator('.reader-page-img').first()).toBeVisible();
}

test('reopening a chapter, or 开始阅读 on another device of the account, returns to the page where the reader stopped', async ({
  page,
  device,
}) => {
  await openAsVisitor(page, '/home');
  await openChapter(page, '/book/read/1/1?title=x');
  const pages = await page.locator('.reader-pages [data-page]').count();
  expect(pages).toBeGreaterThan(4);
  await scrollToPage(page, 4, 0.5);
  // Kept once the scrolling settles (at most a second), on the device at once.
  await expect.poll(() => keptPosition(page, 1)).toMatchObject({ chapterNumber: 1, pageNumber: 4 });

  await page.goto('/home');
  await openChapter(page, '/book/read/1/1?title=x');
  await expect.poll(async () => (await pageAtTop(page)).pageNumber).toBe(4);
  expect((await pageAtTop(page)).offset).toBeCloseTo(0.5, 1);

  // The detail page says where.
  await page.goto('/book/1');
  await expect(page.getByTestId('book-resume')).toHaveText('续看第1话 第4页');

  // Another phone, logged in to the same account: the account's position, after the account's push (≤ 5 s).
  const { userInfo, password } = await storedUser(page);
  await page.goto('/home'); // leaving the reader sends what is owed
  const other = await device();
  await openAsVisitor(other, '/user/login');
  await other.getByPlaceholder('请输入账号或手机号').fill(userInfo.account);
  await other.getByPlaceholder('请输入密码').fill(password);
  await other.getByRole('button', { name: '登录', exact: true }).click();
  await other.getByRole('button', { name: '确定' }).click();
  await expect
    .poll(
      async () => {
        await other.goto('/book/1');
        return other
          .getByTestId('book-resume')
          .textContent({ timeout: 3000 })
          .catch(() => null);
      },
      { timeout: 20_000 },
    )
    .toBe('续看第1话 第4页');
  await other.getByRole('button', { name: '开始阅读' }).click();
  await other.getByRole('button', { name: '确定' }).click();
  await expect(other.locator('.reader-page-img').first()).toBeVisible();
  await expect.poll(async () => (await pageAtTop(other)).pageNumber).toBe(4);
  await settledShot(other, 'resume-other-device');
});

test('举报此页 sends the report form the page the reader was looking at, and the complaint keeps it', async ({
  page,
}) => {
  await openAsVisitor(page, '/home');
  await openChapter(page, '/book/read/1/2?title=x');
  await scrollToPage(page, 3, 0.2);
  // A tap in the middle of the screen shows the menus (scrolling hid them).
  await expect(page.locator('.reader-top')).not.toHaveClass(/is-visible/);
  await page.mouse.click(195, 420);
  await expect(page.locator('.reader-top')).toHaveClass(/is-visible/);
  await page.getByRole('button', { name: '举报此页' }).click();
  await expect(page).toHaveURL(/\/h5\/report\?/);
  await expect(page.getByTestId('reported-page')).toContainText('第2话 第3页');
  await settledShot(page, 'report-this-page');
  // Leaving kept the reader's place: the report page's shorter document scrolled the window to its top before the
  // reader's scroll listener was gone, which once saved page 1 (about one run in ten).
  expect(await keptPosition(page, 1)).toMatchObject({ chapterNumber: 2, pageNumber: 3 });
  await page.getByText('侵权盗版').click();
  const sent = page.waitForRequest((r) => r.url().includes('/api/support/report') && r.method() === 'POST');
  await page.getByRole('button', { name: '提交' }).click();
  const body = new URLSearchParams((await sent).postData() ?? '');
  expect(Object.fromEntries(body)).toMatchObject({ bookId: '1', chapterNumber: '2', pageNumber: '3' });
  await expect(page.getByText('提交成功，感谢您的反馈')).toBeVisible();
  // Back to the chapter, where the reader was.
  await expect(page).toHaveURL(/\/book\/read\/1\/2/, { timeout: 5000 });
  await expect.poll(async () => (await pageAtTop(page)).pageNumber).toBe(3);
});
