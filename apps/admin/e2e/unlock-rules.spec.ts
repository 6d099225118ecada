import type { PlaywrightWorkerArgs } from '@playwright/test';
import { addOperator, apiData, expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// Wait or pay in the console: an editor sets a book's wait-for-free to 1 minute with 2 early-access chapters on its
// edit page, a 12-hour variant for one promotion branch, and makes and deletes another branch's; a finance operator grants a reader 2 reading tickets with a reason on the reader page; the reader (a
// phone's calls) sees them, unlocks one chapter with a ticket and another by waiting for free; the audit log shows
// both changes.

interface BookRow {
  id: number;
  title: string;
  chapterCount: number;
  published: boolean;
}
interface Chapter {
  id: number;
  number: number;
  price: number;
  publishAt: string | null;
}

/** A reader on a phone, registered as the reader app registers them on a first visit (its calls are enough here). */
async function phoneReader(playwright: PlaywrightWorkerArgs['playwright']) {
  const reader = await playwright.request.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  });
  const registered = await (await reader.post('/api/user/register')).json();
  const { account } = registered.data as { account: string };
  const info = await (await reader.get('/api/user/info')).json();
  return { reader, account, userId: info.data.userId as number };
}

test('an editor sets wait-for-free and early access; finance grants tickets; the reader unlocks by both; the audit log shows them', async ({
  page,
  operators,
  playwright,
}) => {
  // Two operators made by `npm run operator`, three sign-ins and two screens: more than the default 90 s when busy.
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const editor = await addOperator(`editor-${suffix}`, 'editor');
  const finance = await addOperator(`finance-${suffix}`, 'finance');

  // A demo book with at least two priced chapters before its newest two (those become early access).
  await logIn(page, editor);
  const books = await apiData<{ list: BookRow[] }>(page, '/api/admin/books?page=1&size=100');
  let book: (BookRow & { chapters: Chapter[] }) | undefined;
  for (const row of [...books.list]
    .filter((b) => b.published && b.chapterCount >= 5)
    .sort((a, b) => b.id - a.id)) {
    const full = await apiData<BookRow & { chapters: Chapter[] }>(page, `/api/admin/books/${row.id}`);
    const open = full.chapters.filter(
      (c) => c.price > 0 && c.publishAt === null && c.number <= full.chapterCount - 2,
    );
    if (open.length >= 2) {
      book = full;
      break;
    }
  }
  if (!book) throw new Error('the demo library has no book with two priced chapters before its newest two');
  const priced = book.chapters.filter((c) => c.price > 0 && c.number <= (book?.chapterCount ?? 0) - 2);
  const newest = book.chapters.reduce((a, b) => (b.number > a.number ? b : a));

  await page.goto(`/admin/books/${book.id}`);
  // The book page first (slow on a loaded machine), then its card.
  await expect(page.getByLabel('书名')).toHaveValue(book.title, { timeout: 60_000 });
  const card = page.getByTestId('unlock-rules');
  await expect(card).toContainText('尚未设置（仅阅币解锁）');
  await expect(card.getByTestId('rules-meaning')).toContainText('未开启等就免费');
  await card.getByLabel('等就免费').click();
  await card.locator('#unlock-rules_waitMinutes').fill('1');
  await card.locator('.ant-form .ant-select-selector').click();
  await page.locator('.ant-select-item-option[title="分钟"]').click();
  await card.locator('#unlock-rules_earlyAccessChapters').fill('2');
  await expect(card.getByTestId('rules-meaning')).toContainText(
    '等就免费：读者每等 1 分钟可免费解锁一话付费章节（最新 2 话除外），解锁后 72 小时内可读',
  );
  // The book's own 保存 stays the only button of that name on the page (other specs click it by name).
  await expect(page.getByRole('button', { name: /保\s*存/ })).toHaveCount(1);
  await card.getByRole('button', { name: /应用解锁规则/ }).click();
  await expect(page.getByText('解锁规则已保存')).toBeVisible();
  await expect(card).toContainText('最近保存：');
  await expect(card).toContainText('（北京时间）');
  await shot(page, 'unlock-rules');
  const rules = await apiData<{ waitFree: { waitMinutes: number }; earlyAccessChapters: number }>(
    page,
    `/api/admin/books/${book.id}/unlock-rules`,
  );
  expect(rules).toMatchObject({ waitFree: { waitMinutes: 1, rentalHours: 72 }, earlyAccessChapters: 2 });

  // A variant for one promotion branch: a 12-hour wait for its readers, the default's 1 minute for everyone else.
  const branch = 9000 + (Date.now() % 900);
  await card.getByLabel('渠道 ID').fill(String(branch));
  await card.getByRole('button', { name: /为该渠道设专属规则/ }).click();
  await expect(card).toContainText('该渠道尚无专属规则（沿用默认规则）');
  await expect(card.getByTestId('rules-meaning')).toContainText(`推广渠道：渠道 ${branch}`);
  await card.locator('#unlock-rules_waitMinutes').fill('12');
  await card.locator('.ant-form .ant-select-selector').click();
  await page.locator('.ant-select-item-option[title="小时"]').click();
  await expect(card.getByTestId('rules-meaning')).toContainText('读者每等 12 小时可免费解锁一话');
  await card.getByRole('button', { name: /应用解锁规则/ }).click();
  await expect(page.getByText('解锁规则已保存')).toBeVisible();
  await expect(card).toContainText('最近保存：');
  await expect(card.getByRole('button', { name: /删除该渠道规则/ })).toBeVisible();
  await shot(page, 'unlock-rules-branch');
  const variant = await apiData<{ waitFree: { waitMinutes: number }; branches: number[] }>(
    page,
    `/api/admin/books/${book.id}/unlock-rules?branchId=${branch}`,
  );
  expect(variant).toMatchObject({ waitFree: { waitMinutes: 720 }, branchId: branch, branches: [branch] });
  // The default is untouched; back on it, the selector lists the branch.
  await card.getByTestId('rules-branch').locator('.ant-select-selector').click();
  await page.locator('.ant-select-item-option[title="全部读者（默认规则）"]').click();
  await expect(card.getByTestId('rules-meaning')).toContainText('读者每等 1 分钟');
  expect(
    await apiData<{ waitFree: { waitMinutes: number } }>(page, `/api/admin/books/${book.id}/unlock-rules`),
  ).toMatchObject({ waitFree: { waitMinutes: 1 }, branches: [branch] });

  // A second branch's variant is made and deleted: its readers follow the default again.
  await card.getByLabel('渠道 ID').fill(String(branch + 1));
  await card.getByRole('button', { name: /为该渠道设专属规则/ }).click();
  await expect(card).toContainText('该渠道尚无专属规则（沿用默认规则）');
  await card.getByRole('button', { name: /应用解锁规则/ }).click();
  await expect(card.getByRole('button', { name: /删除该渠道规则/ })).toBeVisible();
  await card.getByRole('button', { name: /删除该渠道规则/ }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await expect(page.getByText('渠道专属规则已删除')).toBeVisible();
  await expect(card.getByTestId('rules-meaning')).toContainText('全部读者（默认规则）');
  expect(
    await apiData<{ branches: number[] }>(page, `/api/admin/books/${book.id}/unlock-rules`),
  ).toMatchObject({ branches: [branch] });

  // Finance grants a reader two tickets, with a reason (none: no grant).
  const { reader, account, userId } = await phoneReader(playwright);
  await page.context().clearCookies();
  await logIn(page, finance);
  await page.goto(`/admin/readers/${userId}`);
  await expect(page.getByText(`读者 ${account}`)).toBeVisible();
  await page.getByRole('button', { name: /发放阅读券/ }).click();
  const dialog = page.getByRole('dialog', { name: `给读者 ${account} 发放阅读券` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('张数').fill('2');
  await dialog.getByRole('button', { name: /确认发放/ }).click();
  await expect(dialog.getByText('请填写原因')).toBeVisible();
  await dialog.getByLabel('原因').fill('活动奖励：连续签到七天');
  await shot(page, 'reader-grant-tickets');
  const granted = page.waitForResponse((r) => r.url().endsWith(`/readers/${userId}/tickets`));
  await dialog.getByRole('button', { name: /确认发放/ }).click();
  expect((await (await granted).json()).msg).toBe('已发放 2 张阅读券');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('已发放 2 张阅读券')).toBeVisible();
  await page.getByRole('tab', { name: '阅读券' }).click();
  const tickets = page.getByRole('tabpanel', { name: '阅读券' });
  await expect(tickets.locator('tbody tr')).toHaveCount(2);
  await expect(tickets).toContainText('全部书籍');
  await expect(tickets).toContainText('可用');
  await expect(tickets).toContainText('活动奖励：连续签到七天');
  await shot(page, 'reader-tickets');

  // The reader sees the tickets, unlocks a chapter with one and another by waiting for free; the newest is early access.
  const mine = (await (await reader.get('/api/user/tickets')).json()).data.list;
  expect(mine).toHaveLength(2);
  expect(mine[0]).toMatchObject({ kind: 'read', state: 'usable', scope: null });
  const unlock = async (chapterId: number, by: string) =>
    (await reader.post('/api/book/chapter/unlock', { data: { bookId: book?.id, chapterId, by } })).json();
  expect(await unlock(priced[0]?.id ?? 0, 'ticket')).toMatchObject({
    result: true,
    data: { source: 'ticket' },
  });
  expect(await unlock(priced[1]?.id ?? 0, 'wait_free')).toMatchObject({
    result: true,
    data: { source: 'wait_free' },
  });
  if (newest.price > 0)
    expect(await unlock(newest.id, 'wait_free')).toMatchObject({ code: 999, data: { earlyAccess: true } });
  const after = (await (await reader.get('/api/user/tickets')).json()).data.list;
  expect(after.map((t: { state: string }) => t.state)).toEqual(['usable', 'spent']);
  await reader.dispose();

  // The audit log shows both changes.
  await page.context().clearCookies();
  await logIn(page, operators.owner);
  await page.goto('/admin/audit');
  await expect(page.getByText('设置解锁规则').first()).toBeVisible();
  await expect(page.getByText('删除渠道专属解锁规则').first()).toBeVisible();
  await expect(page.getByText('发放阅读券').first()).toBeVisible();
  await expect(page.getByText(`书籍 ${book.id}`).first()).toBeVisible();
  await expect(page.getByText(`读者 ${userId}`).first()).toBeVisible();
});
