import { bookDetail } from './api.ts';
import { signedInEditor } from './console-editor.ts';
import { expect, test } from './fixtures.ts';
import { openAsVisitor, settledShot } from './support.ts';

// Following a series on a phone: the reader follows a book, an editor lets a chapter out through the console's
// call (an operator made with the operator CLI, as in production), the shelf tab shows its red dot, the shelf says
// 更新至第N话 · 未读 and takes a 攒更 setting, and the release calendar opens from the home page.

const port = Number(process.env.E2E_PORT ?? 18900);

test('follow a book, see the red dot once a chapter is out, 更新至 · 未读 on the shelf, and the calendar', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL ?? '').origin;
  await openAsVisitor(page, '/home');
  const admin = await signedInEditor(page.request, origin, `.tmp/e2e-data-${port}`);
  // A serialized book with a few chapters; its newest is scheduled for later (hidden until then).
  let bookId = 0;
  let last = 0;
  for (let id = 12; id <= 64 && !bookId; id++) {
    const d = await bookDetail(page.request, id);
    if (d.book.publishStatus === 'serialize' && d.chapterList.length >= 3) {
      bookId = id;
      last = d.chapterList.at(-1)?.number ?? 0;
    }
  }
  expect(bookId).toBeGreaterThan(0);
  const chapterUrl = `/api/admin/books/${bookId}/chapters/${last}`;
  const later = await admin(chapterUrl, { publishAt: new Date(Date.now() + 3600_000).toISOString() });
  expect(later.ok(), await later.text()).toBe(true);

  await page.goto(`/book/${bookId}`);
  await page.getByRole('button', { name: '加入收藏' }).click();
  await expect(page.getByRole('button', { name: '取消收藏' })).toBeVisible();
  await page.goto('/shelf');
  const list = page.getByRole('list', { name: '我的收藏' });
  await expect(list).toContainText(`更新至第${last - 1}话`);
  const shelfTab = page.getByRole('tab', { name: /^书架/ });
  await expect(shelfTab).toHaveAttribute('aria-label', '书架');
  // The account holds the follow, seen up to the chapter out now, before the next comes out. (A follow's send that
  // the navigation cut off is sent again by the shelf's pull, seen up to the newest chapter *then*: on a loaded
  // machine that could come after the release below, and the dot would rightly not show.)
  await expect
    .poll(async () => {
      const follows = (await (await page.request.get('/api/user/follows')).json()).data as {
        bookId: number;
        seenChapter: number;
      }[];
      return follows.find((f) => f.bookId === bookId)?.seenChapter;
    })
    .toBe(last - 1);

  // The editor lets the chapter out now.
  const out = await admin(chapterUrl, { publishAt: null });
  expect(out.ok(), await out.text()).toBe(true);
  await page.goto('/home');
  await expect(shelfTab).toHaveAttribute('aria-label', '书架，有更新');
  await expect(shelfTab.locator('.adm-badge-dot')).toBeVisible();
  await settledShot(page, 'follows-red-dot');

  await shelfTab.click();
  await expect(list).toContainText(`更新至第${last}话`);
  await expect(list).toContainText('有更新');
  // Looked at: the dot goes out, and stays out on the next start.
  await expect(shelfTab).toHaveAttribute('aria-label', '书架');
  await list.getByRole('combobox', { name: /攒更提醒/ }).selectOption('5');
  await expect
    .poll(async () => (await (await page.request.get('/api/user/follows')).json()).data[0]?.pileUp)
    .toBe(5);
  await settledShot(page, 'follows-shelf');
  await page.reload();
  await expect(page.getByRole('tab', { name: '书架' })).toBeVisible();
  await expect(list.getByRole('combobox', { name: /攒更提醒/ })).toHaveValue('5');

  // The editor gives the book today's weekday as its 更新日 (China time); the calendar, from the home page.
  const book = await (await page.request.get(`/api/admin/books/${bookId}`)).json();
  const today = new Date(Date.now() + 8 * 3600_000).getUTCDay() || 7;
  const days = await admin(`/api/admin/books/${bookId}`, {
    version: book.data.version,
    releaseDays: [today],
  });
  expect(days.ok(), await days.text()).toBe(true);
  await page.goto('/home');
  await page.getByRole('link', { name: '更新日历' }).click();
  await expect(page.locator('.top-bar')).toContainText('更新日历');
  await expect(page.getByRole('tab', { name: /今天/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab')).toHaveCount(7);
  const todays = page.getByRole('list', { name: '今天更新' });
  await expect(todays.getByRole('listitem').first()).toContainText('追更中');
  await settledShot(page, 'follows-calendar');
});
