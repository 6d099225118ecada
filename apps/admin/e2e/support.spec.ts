import { expect, logIn, shot, test } from './fixtures.ts';

test('a support operator reads but has no write controls, and a write is refused', async ({
  page,
  operators,
}) => {
  await logIn(page, operators.support);
  await expect(page.getByTestId('current-operator')).toContainText('客服');

  // The menu offers what the role uses: complaints, not operators, the audit log or imports.
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await expect(menu.getByText('投诉')).toBeVisible();
  await expect(menu.getByText('书籍')).toBeVisible();
  for (const hidden of ['管理员', '操作日志', '导入']) await expect(menu.getByText(hidden)).toHaveCount(0);

  await page.goto('/admin/complaints');
  await expect(page.getByRole('tab', { name: '处理中' })).toBeVisible();

  await page.goto('/admin/books/1');
  await expect(page.getByTestId('chapters').locator('tr.ant-table-row').first()).toBeVisible();
  await expect(page.getByLabel('书名')).toBeDisabled();
  await expect(page.getByRole('button', { name: /保\s*存/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '上传新封面' })).toHaveCount(0);
  await expect(page.getByTestId('pricing-form')).toHaveCount(0);
  await expect(page.getByTestId('chapters').getByRole('button', { name: /编\s*辑/ })).toHaveCount(0);
  await shot(page, 'support-book-edit');

  // The server decides all the same: a write from this session is refused.
  const refused = await page.evaluate(async () => {
    const res = await fetch('/api/admin/books/1/pricing', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ freeChapters: 1, price: 10 }),
    });
    return { status: res.status, body: (await res.json()) as { msg: string } };
  });
  expect(refused).toMatchObject({ status: 403, body: { msg: '当前角色无权进行此操作' } });

  await page.goto('/admin/home');
  await expect(page.getByTestId('section-e_recommend').locator('tr.ant-table-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /保\s*存/ })).toHaveCount(0);
  await expect(page.locator('.ant-pro-table-drag-icon')).toHaveCount(0);

  // A screen the role does not use says so; the server refuses its call anyway.
  await page.goto('/admin/operators');
  await expect(page.getByText('当前角色无权进行此操作')).toBeVisible();
});
