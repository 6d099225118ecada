import type { Page } from '@playwright/test';
import { apiData, expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// What a new operator tripped over, fixed: batch pricing shows the book's rule and asks before changing prices
// readers paid; a London browser shows and takes China time; the audit log filters on the server and reads in
// Chinese; a 409 keeps the operator's typing and shows what the other save changed.

interface BookRow {
  id: number;
  title: string;
  chapterCount: number;
}
interface AdminChapter {
  id: number;
  number: number;
  price: number;
  publishAt: string | null;
  buyers: number;
}
interface AdminBook {
  id: number;
  version: string;
  author: string;
  description: string;
  chapters: AdminChapter[];
}

/** A console write from the page, as the console sends it (its cookie and Origin): the envelope. */
async function consoleWrite(page: Page, url: string, body: object) {
  return page.evaluate(
    async ({ url, body }) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { result: boolean; code: number; msg: string; data: unknown };
    },
    { url, body },
  );
}

/** A book of this spec's own: not the first with 3 chapters (the catalogue spec's), at least 4 chapters. */
async function ownBook(page: Page) {
  const { list } = await apiData<{ list: BookRow[] }>(page, '/api/admin/books?page=1&size=50');
  const theirs = list.find((b) => b.chapterCount >= 3);
  const book = list.filter((b) => b.chapterCount >= 4 && b.id !== theirs?.id).at(-1);
  if (!book) throw new Error('no second book with 4 chapters');
  return book;
}

/** A reader who owns chapter `chapterId` (coins granted by the console, then bought as a reader buys). */
async function readerBuys(
  page: Page,
  playwright: import('@playwright/test').PlaywrightWorkerArgs['playwright'],
  chapterId: number,
) {
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const { account } = (await (await reader.post('/api/user/register')).json()).data as { account: string };
  const found = await apiData<{ list: { userId: number }[] }>(page, `/api/admin/readers?q=${account}`);
  const userId = found.list[0]?.userId as number;
  const granted = await consoleWrite(page, `/api/admin/readers/${userId}/coins`, {
    direction: 'grant',
    amount: 500,
    reason: '测试批量定价的购买者',
    requestId: `also-found-${Date.now()}`,
  });
  expect(granted.result, granted.msg).toBe(true);
  const bought = await (await reader.post(`/api/book/chapter/buy?chapterId=${chapterId}`)).json();
  expect(bought.result, bought.msg).toBe(true);
  await reader.dispose();
}

test('batch pricing shows the book’s rule and asks, naming the chapters that change and their buyers; the audit log finds it, readable', async ({
  page,
  operators,
  playwright,
}) => {
  await logIn(page, operators.owner);
  const row = await ownBook(page);
  // The book starts at a rule of its own (not the card's old 3 free / 30), and a reader owns chapter 4.
  const priced = await consoleWrite(page, `/api/admin/books/${row.id}/pricing`, {
    freeChapters: 1,
    price: 25,
  });
  expect(priced.result, priced.msg).toBe(true);
  const book = await apiData<AdminBook>(page, `/api/admin/books/${row.id}`);
  const fourth = book.chapters.find((c) => c.number === 4) as AdminChapter;
  await readerBuys(page, playwright, fourth.id);

  await page.goto(`/admin/books/${row.id}`);
  await expect(page.getByTestId('pricing-current')).toHaveText('当前：前 1 话免费，之后每话 25 阅币');
  const form = page.getByTestId('pricing-form');
  await expect(form.locator('input').nth(0)).toHaveValue('1');
  await expect(form.locator('input').nth(1)).toHaveValue('25');

  await form.locator('input').nth(0).fill('2');
  await form.locator('input').nth(1).fill('40');
  await form.getByRole('button', { name: /应\s*用/ }).click();
  const confirm = page.getByTestId('pricing-confirm');
  const changed = book.chapters.length - 1;
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText(
    `按“前 2 话免费，之后每话 40 阅币”修改 ${changed} 话的价格？`,
  );
  await expect(confirm).toContainText('其中 1 话已有读者购买（共 1 人次）');
  await shot(page, 'also-found-pricing-confirm');
  // Cancelled: nothing changes.
  await page.getByRole('button', { name: /取\s*消/ }).click();
  expect((await apiData<AdminBook>(page, `/api/admin/books/${row.id}`)).chapters[1]?.price).toBe(25);

  await form.getByRole('button', { name: /应\s*用/ }).click();
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByTestId('pricing-current')).toHaveText('当前：前 2 话免费，之后每话 40 阅币');
  const after = await apiData<AdminBook>(page, `/api/admin/books/${row.id}`);
  expect(after.chapters.map((c) => c.price)).toEqual(after.chapters.map((c) => (c.number <= 2 ? 0 : 40)));
  await shot(page, 'also-found-pricing-applied');

  // The audit log: filtered by action and object on the server, read in Chinese, before and after by field.
  await page.goto('/admin/audit');
  await page.getByLabel('操作', { exact: true }).click();
  await page.keyboard.type('批量定价');
  await page.locator('.ant-select-item-option[title="批量定价"]').click();
  await page.getByLabel('对象类型').click();
  await page.locator('.ant-select-item-option[title="书籍"]').click();
  await page.getByLabel('对象编号').fill(String(row.id));
  await page.getByRole('button', { name: /筛\s*选/ }).click();
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2); // this spec's two pricings of the book
  await expect(rows.first()).toContainText('批量定价');
  await expect(rows.first()).toContainText(`书籍 ${row.id}`);
  await expect(page.locator('.ant-table-tbody').first()).not.toContainText('book.pricing');
  await rows.first().locator('.ant-table-row-expand-icon').click();
  const diff = page.getByTestId('audit-before-after');
  await expect(diff).toContainText('各话价格');
  await expect(diff).toContainText('第2话 25阅币');
  await expect(diff).toContainText('第2话 免费');
  await expect(page.locator('.ant-table-tbody').first()).not.toContainText('{');
  await expect(page.getByText('时间（北京时间）')).toBeVisible();
  await shot(page, 'also-found-audit');
});

test('a 409 keeps what the operator typed, shows the other save field by field, and saves over it when asked', async ({
  page,
  operators,
}) => {
  await logIn(page, operators.owner);
  const row = await ownBook(page);
  await page.goto(`/admin/books/${row.id}`);
  const opened = await apiData<AdminBook>(page, `/api/admin/books/${row.id}`);
  await expect(page.getByLabel('简介')).toHaveValue(opened.description);

  // Another operator saves a new author after this page opened the book.
  const other = await consoleWrite(page, `/api/admin/books/${row.id}`, {
    version: opened.version,
    author: '另一位作者',
  });
  expect(other.result, other.msg).toBe(true);
  const typed = `${opened.description}（本页修订）`;
  await page.getByLabel('简介').fill(typed);
  await page.getByRole('button', { name: /保\s*存/ }).click();

  const notice = page.getByTestId('edit-conflict');
  await expect(notice).toBeVisible();
  await expect(page.getByLabel('简介')).toHaveValue(typed); // the typing stays
  await expect(page.getByLabel('作者')).toHaveValue(opened.author);
  const authorRow = notice.locator('tr', { hasText: '作者' });
  await expect(authorRow).toContainText(opened.author);
  await expect(authorRow).toContainText('另一位作者');
  await expect(authorRow).toContainText('未修改（保留已保存的版本）');
  await expect(notice.locator('tr', { hasText: '简介' })).toContainText('（本页修订）');
  await shot(page, 'also-found-conflict');

  await notice.getByRole('button', { name: '用我填写的覆盖保存' }).click();
  await expect(notice).toHaveCount(0);
  const saved = await apiData<AdminBook>(page, `/api/admin/books/${row.id}`);
  // Both saves kept: their author, this page's description.
  expect(saved).toMatchObject({ author: '另一位作者', description: typed });
  // Put back for a second run on the same server.
  await consoleWrite(page, `/api/admin/books/${row.id}`, {
    version: saved.version,
    author: opened.author,
    description: opened.description,
  });
});

test('a browser in London shows and takes China time, and says so', async ({ browser, operators }) => {
  const london = await browser.newContext({
    timezoneId: 'Europe/London',
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
  });
  const page = await london.newPage();
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Europe/London');
  await logIn(page, operators.owner);
  const row = await ownBook(page);
  const book = await apiData<AdminBook>(page, `/api/admin/books/${row.id}`);
  const last = book.chapters.at(-1) as AdminChapter;
  // Tomorrow 10:00 in China, scheduled as an instant (02:00 UTC; 02:00 in London in winter, 03:00 in summer).
  const day = new Date(Date.now() + 32 * 3600_000).toISOString().slice(0, 10);
  const scheduled = await consoleWrite(page, `/api/admin/books/${row.id}/chapters/${last.number}`, {
    publishAt: `${day}T10:00:00+08:00`,
  });
  expect(scheduled.result, scheduled.msg).toBe(true);

  await page.goto(`/admin/books/${row.id}`);
  const chapterRow = page.getByTestId('chapters').locator(`tr.ant-table-row[data-row-key="${last.number}"]`);
  await expect(chapterRow).toContainText(`${day} 10:00`);
  await expect(page.getByTestId('chapters')).toContainText('定时发布（北京时间）');
  await chapterRow.getByRole('button', { name: /编\s*辑/ }).click();
  const dialog = page.getByRole('dialog', { name: `编辑第 ${last.number} 话` });
  await expect(dialog.getByText('定时发布（北京时间）')).toBeVisible();
  const picker = dialog.locator('.ant-picker input');
  await expect(picker).toHaveValue(`${day} 10:00:00`);
  await shot(page, 'also-found-london-picker');

  // Typed in London as 11:30: China's 11:30, 03:30 UTC.
  await picker.click();
  await picker.fill(`${day} 11:30:00`);
  await picker.press('Enter');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toHaveCount(0);
  await expect(chapterRow).toContainText(`${day} 11:30`);
  const saved = await apiData<AdminBook>(page, `/api/admin/books/${row.id}`);
  expect(saved.chapters.at(-1)?.publishAt).toBe(`${day}T03:30:00.000Z`);

  // The audit log's times are China's too: the schedule's entry shows this minute in China.
  await page.goto('/admin/audit');
  const now = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai',
    dateStyle: 'short',
  }).format(new Date());
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toContainText(now);
  await expect(page.getByText('时间（北京时间）')).toBeVisible();
  await shot(page, 'also-found-london-audit');

  // Published again, for a second run.
  await consoleWrite(page, `/api/admin/books/${row.id}/chapters/${last.number}`, { publishAt: null });
  await london.close();
});
