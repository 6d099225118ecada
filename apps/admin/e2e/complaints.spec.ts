import type { Page } from '@playwright/test';
import { expect, logIn, shot, test } from './fixtures.ts';
import { phoneReader } from './readers-kit.ts';

// The complaints inbox: a reader reports a page from the reader's menu (举报此页) on a phone; customer service opens
// the complaint, follows its page link (the reader opens at that page), takes it (处理中), adds a note and marks it
// 已处理.

/** The page at the top of the reader's screen (1-based), as the reader app computes it. */
const pageAtTop = (page: Page) =>
  page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('.reader-pages [data-page]'));
    return rows.findLastIndex((r) => r.getBoundingClientRect().top <= 1) + 1;
  });

test('support handles a reported page from its link: 处理中, a note, 已处理', async ({
  page,
  browser,
  operators,
}) => {
  // The reader, on a phone: chapter 2 of book 1, page 3, 举报此页.
  const { context: phone, page: reader } = await phoneReader(browser);
  await reader.goto('/book/read/1/2?title=x');
  await expect(reader.locator('.reader-page-img').first()).toBeVisible({ timeout: 60_000 });
  await expect(reader.locator('.reader-pages [data-page]').nth(2)).toBeAttached({ timeout: 60_000 });
  await reader.evaluate(() => {
    const row = document.querySelectorAll<HTMLElement>('.reader-pages [data-page]')[2];
    if (!row) throw new Error('no page 3');
    window.scrollTo(0, row.getBoundingClientRect().top + window.scrollY + 0.2 * row.offsetHeight);
  });
  await expect.poll(() => pageAtTop(reader)).toBe(3);
  await reader.mouse.click(195, 420);
  await expect(reader.locator('.reader-top')).toHaveClass(/is-visible/);
  await reader.getByRole('button', { name: '举报此页' }).click();
  await expect(reader.getByTestId('reported-page')).toContainText('第2话 第3页');
  await reader.getByText('侵权盗版').click();
  await reader.getByPlaceholder('手机号、QQ或邮箱（选填）').fill('QQ 800012345');
  await reader.getByPlaceholder('请描述您遇到的问题（选填）').fill('这一页是盗版扫描');
  await reader.screenshot({
    path: new URL('./screenshots/complaint-reader-report.png', import.meta.url).pathname,
  });
  await reader.getByRole('button', { name: '提交' }).click();
  await expect(reader.getByText('提交成功，感谢您的反馈')).toBeVisible();

  // Customer service: the inbox, the new complaint first.
  await logIn(page, operators.support);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('投诉', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/complaints$/);
  const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(first).toContainText('第2话 第3页');
  await expect(first).toContainText('新');
  await expect(first).toContainText('这一页是盗版扫描');
  await shot(page, 'complaints-inbox');

  await first.getByRole('button', { name: '处理' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer).toContainText('QQ 800012345');
  await expect(drawer).toContainText('这一页是盗版扫描');
  // Support does not write the catalogue: the take-downs are there, not to be used by this role.
  await expect(drawer.getByRole('button', { name: '下架本话' })).toBeDisabled();

  // The page link opens the reader app at that chapter and page.
  const link = drawer.getByTestId('complaint-page-link');
  await expect(link).toHaveAttribute('href', '/book/read/1/2?page=3&from=console');
  // Followed on the reader's phone: a desktop browser gets the reader app's PC page (its QR code) instead.
  const opened = await phone.newPage();
  await opened.goto((await link.getAttribute('href')) ?? '');
  await expect(opened.locator('.reader-page-img').first()).toBeVisible({ timeout: 60_000 });
  await expect(opened.locator('.reader-pages [data-page]').nth(2)).toBeAttached({ timeout: 60_000 });
  await expect.poll(() => pageAtTop(opened)).toBe(3);
  await opened.close();
  await phone.close();

  await drawer.getByRole('button', { name: '接手处理' }).click();
  await expect(page.getByText('已接手')).toBeVisible();
  await expect(drawer.getByTestId('complaint-handler')).toHaveText(operators.support.name);
  await drawer.getByLabel('备注').fill('已核实：第3页为盗版扫描，已转编辑下架');
  await drawer.getByRole('button', { name: '添加备注' }).click();
  const note = drawer.getByTestId('complaint-note');
  await expect(note).toContainText('已核实：第3页为盗版扫描，已转编辑下架');
  await expect(note).toContainText(operators.support.name);
  await expect(note).toContainText('（北京时间）');
  await shot(page, 'complaint-drawer');

  await drawer.getByRole('button', { name: '标为已处理' }).click();
  await expect(page.getByText('已标为已处理')).toBeVisible();
  await expect(drawer).toContainText('已处理');
  await page.locator('.ant-drawer-close').click();

  // The inbox by state: 已处理 lists it, 新 does not.
  await page.getByRole('tab', { name: '已处理' }).click();
  await expect(first).toContainText('第2话 第3页');
  await expect(first).toContainText(operators.support.name);
  await shot(page, 'complaints-done');
});
