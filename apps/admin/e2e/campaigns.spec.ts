import { addOperator, expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// 限免与折扣: an editor makes a book free for the next hour (China time); a reader on a phone reads a priced chapter
// of it with no coins, the unlock's source limited_free; the editor ends it; the chapter is locked again.

test('an editor makes a book free for an hour, a reader reads a priced chapter, the editor ends it and it locks', async ({
  page,
  browser,
}) => {
  const editor = await addOperator(`editor-camp-${Date.now().toString(36)}`, 'editor');
  const phone = await browser.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const reader = phone.request;
  expect((await (await reader.post('/api/user/register')).json()).result).toBe(true);
  // A demo book with a priced chapter the new reader (no coins, not VIP) cannot read.
  let bookId = 0;
  let chapter = { number: 0, chapterId: 0, price: 0 };
  // From the last demo book down: other console specs read and buy the first books on the same server.
  for (let id = 20; id >= 1 && !bookId; id--) {
    const list = await (await reader.post(`/api/book/chapter/list?bookId=${id}`)).json();
    const priced = (list.data ?? []).find((c: { price: number }) => c.price > 0);
    if (list.result && priced) {
      bookId = id;
      chapter = priced;
    }
  }
  expect(bookId).toBeGreaterThan(0);
  const readIt = async () =>
    (await reader.get(`/api/book/read_chapter?bookId=${bookId}&number=${chapter.number}`)).json();
  expect((await readIt()).code).toBe(999);

  await logIn(page, editor);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('限免与折扣', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/campaigns$/);
  await page.getByRole('button', { name: /新建活动/ }).click();
  const dialog = page.getByRole('dialog', { name: '新建活动' });
  await dialog.getByLabel('活动名称').fill('周末限免');
  await dialog.getByTestId('book-picker').locator('input').fill(String(bookId));
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: `（ID ${bookId}）` })
    .click();
  await expect(dialog.getByTestId('picked-book')).toContainText(`ID ${bookId}`);
  // The end: an hour from now, typed in China time.
  const end = new Date(Date.now() + 8 * 3_600_000 + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
  const endInput = dialog.getByPlaceholder('结束日期');
  await endInput.click();
  await endInput.fill(end);
  await endInput.press('Enter');
  // The range picker then offers the start (now, as it was): confirmed as it is.
  const ok = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button');
  if (await ok.isVisible()) await ok.click();
  await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')).toHaveCount(0);
  await expect(endInput).toHaveValue(end);
  await shot(page, 'campaign-new');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.locator('tr', { hasText: '周末限免' });
  await expect(row).toContainText('进行中');
  await expect(row).toContainText('限免');
  await expect(row).toContainText(end);
  await shot(page, 'campaigns');

  // The reader reads it free: no coins spent, the unlock is the campaign's, ending when it ends.
  expect((await readIt()).result).toBe(true);
  const unlock = await (
    await reader.post('/api/book/chapter/unlock', {
      data: { bookId, chapterId: chapter.chapterId, by: 'wait_free' },
    })
  ).json();
  expect(unlock.data).toMatchObject({ source: 'limited_free' });
  expect(unlock.data.endsAt).toBeGreaterThan(Date.now() + 50 * 60_000);
  expect((await (await reader.get('/api/user/info')).json()).data.avaliableAmount).toBe(0);

  await row.getByRole('button', { name: /结束 周末限免/ }).click();
  await page.getByRole('button', { name: /^结\s*束$/ }).click();
  await expect(row).toContainText('已结束');
  expect((await readIt()).code).toBe(999);
  await phone.close();
});
