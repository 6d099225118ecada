import { readFile } from 'node:fs/promises';
import { apiData, expect, logIn, shot, test } from './fixtures.ts';
import { sandboxPaidOrder } from './readers-kit.ts';
import { port } from './server-env.ts';

// The dashboard (数据概览): an owner signs in and lands on it; a reader pays a coin pack through the sandbox, and
// the day's figures count it, in the cards and in the core figures' table; the table downloads as a CSV Excel
// reads (UTF-8 with a byte order mark). Customer service keeps its own first screen.

const dataOf = async <T>(res: { json(): Promise<unknown> }) => ((await res.json()) as { data: T }).data;

interface Summary {
  days: number;
  revenue: number;
  paidOrders: number;
  payingReaders: number;
  newReaders: number;
  firstPayers: number;
}

const yuan = (cents: number) => `¥${(cents / 100).toFixed(2)}`;

test('an owner lands on the dashboard, sees a sandbox payment counted today, and downloads the figures as CSV', async ({
  page,
  operators,
  playwright,
}) => {
  await logIn(page, operators.owner);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  // Its figures come (the first call on a fresh server may take a while on a busy machine).
  await expect(page.getByTestId('dashboard-summary').locator('tr.ant-table-row')).toHaveCount(3, {
    timeout: 60_000,
  });
  await expect(page.getByTestId('dashboard-summary')).toContainText('最近 30 天');
  const today = async () =>
    (await apiData<{ summaries: Summary[] }>(page, '/api/admin/dashboard')).summaries[0] as Summary;
  const before = await today();

  // A branch of this run's own: no other spec's visitor comes through it.
  const branch = 80_000 + Math.floor(Math.random() * 10_000);
  const reader = await playwright.request.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    extraHTTPHeaders: { 'x-trace-id': `e2e-dashboard-${Date.now()}`, 'x-branch-id': String(branch) },
  });
  // A new visitor comes through the branch (its first visit marked), registers and pays a coin pack.
  const { amount } = await sandboxPaidOrder(reader, { firstVisit: true });
  // With the coins: a priced chapter of book 1 bought, and the book read.
  const detail = await dataOf<{
    book: { title: string };
    chapterList: { chapterId: number; number: number; price: number }[];
  }>(await reader.get('/api/book/detail/1'));
  const priced = detail.chapterList.find((c) => c.price > 0);
  if (!priced) throw new Error('book 1 of the demo library has a priced chapter');
  const bought = await reader.post(`/api/book/chapter/buy?chapterId=${priced.chapterId}`);
  expect(((await bought.json()) as { result: boolean }).result).toBe(true);
  const progress = {
    bookId: 1,
    chapterNumber: priced.number,
    pageNumber: 1,
    pageOffset: 0,
    readAt: Date.now(),
  };
  expect((await reader.post('/api/user/reading_progress', { data: progress })).ok()).toBe(true);
  await reader.dispose();

  // Other specs may pay at the same time: the figures grow by this payment at least, and the screen shows the
  // server's figures.
  const after = await today();
  expect(after.revenue).toBeGreaterThanOrEqual(before.revenue + amount);
  expect(after.paidOrders).toBeGreaterThanOrEqual(before.paidOrders + 1);
  expect(after.newReaders).toBeGreaterThanOrEqual(before.newReaders + 1);
  expect(after.firstPayers).toBeGreaterThanOrEqual(before.firstPayers + 1);

  await page.reload();
  const cards = page.getByTestId('dashboard-today');
  await expect(cards).toContainText('北京时间');
  const shown = await today();
  await expect(cards).toContainText(yuan(shown.revenue));
  const summary = page.getByTestId('dashboard-summary');
  const todayRow = summary.locator('tr.ant-table-row').first();
  await expect(todayRow).toContainText('当天');
  await expect(todayRow).toContainText(yuan(shown.revenue));
  await expect(page.getByTestId('dashboard-trend').locator('canvas').first()).toBeVisible();
  // The branch's funnel: one first visit, its account, its payment and what it paid.
  const funnelRow = page
    .getByTestId('dashboard-funnel')
    .locator('tr.ant-table-row', { hasText: `渠道 ${branch}` });
  await expect(funnelRow.locator('td')).toHaveText([
    `渠道 ${branch}`,
    '1',
    '1',
    '100.0%',
    '1',
    '100.0%',
    yuan(amount),
  ]);
  await expect(page.getByTestId('dashboard-books-coins')).toContainText(detail.book.title);
  await expect(page.getByTestId('dashboard-books-readers')).toContainText(detail.book.title);
  await shot(page, 'dashboard');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('dashboard-summary-csv').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^核心指标-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    '时段,日期（北京时间）,营收（元）,支付订单,付费读者,新读者,首次付费,ARPPU（元）,退款笔数,退款（元）',
  );
  expect(lines).toHaveLength(4);
  const cells = lines[1]?.split(',') ?? [];
  expect(cells[0]).toBe('当天');
  expect(Number(cells[2])).toBeGreaterThanOrEqual(shown.revenue / 100);
});

test('customer service keeps its first screen and is refused the dashboard', async ({ page, operators }) => {
  await logIn(page, operators.support);
  await expect(page).toHaveURL(/\/admin\/books$/);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await expect(menu.getByText('数据概览', { exact: true })).toHaveCount(0);
  const res = await page.request.get('/api/admin/dashboard');
  expect(((await res.json()) as { code: number }).code).toBe(403);
});
