import sharp from 'sharp';
import { apiData, expect, logIn, shot, test } from './fixtures.ts';

// Every screen of the console opens for an owner, with its rows; a screenshot of each lands in e2e/screenshots.

test('a page opened without a session goes to the login page and comes back after signing in', async ({
  page,
  operators,
}) => {
  await page.goto('/admin/audit');
  await expect(page).toHaveURL(/\/admin\/login\?from=%2Faudit$/);
  await expect(page.getByText('阅漫管理后台')).toBeVisible();
  await shot(page, 'login');

  await page.getByPlaceholder('用户名').fill(operators.owner.name);
  await page.getByPlaceholder('密码').fill('wrong-password');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByTestId('login-error')).toHaveText('用户名或密码错误');
  await shot(page, 'login-error');

  await page.getByPlaceholder('密码').fill(operators.owner.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByTestId('current-operator')).toContainText(operators.owner.name);
  await expect(page.getByTestId('current-operator')).toContainText('所有者');

  await page.getByRole('button', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto('/admin/books');
  await expect(page).toHaveURL(/\/admin\/login\?from=%2Fbooks$/);
});

test('every screen opens for an owner', async ({ page, operators }) => {
  // No script error and no policy violation (the server's CSP for /admin: scripts from 'self' only).
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });

  // A reader's complaint, for the complaints table.
  const report = await page.request.post('/api/support/report', {
    data: { reason: '内容违规', content: '第 3 话有不适内容', contact: 'QQ 123456', pageUrl: '/book/1' },
  });
  expect(report.ok()).toBe(true);

  await logIn(page, operators.owner);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');

  await page.goto('/admin/books');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '书名' })).toBeVisible();
  await shot(page, 'books');

  // The filters: a status narrows the list, a search finds one book.
  const { list } = await apiData<{ list: { id: number; title: string }[] }>(
    page,
    '/api/admin/books?page=1&size=5',
  );
  const first = list[0];
  if (!first) throw new Error('no books');
  await page.getByPlaceholder('书名或作者').fill(first.title);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows.first()).toContainText(first.title);

  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/books/${first.id}$`));
  await expect(page.getByTestId('chapters').locator('tr.ant-table-row').first()).toBeVisible();
  await expect(page.getByLabel('书名')).toHaveValue(first.title);
  await shot(page, 'book-edit');

  await page.goto('/admin/imports');
  await expect(page.getByText('最近的导入')).toBeVisible();
  await shot(page, 'imports');

  await page.goto('/admin/home');
  await expect(page.getByTestId('section-e_recommend').locator('tr.ant-table-row').first()).toBeVisible();
  await shot(page, 'home-sections');
  await page.getByRole('tab', { name: '热词' }).click();
  await expect(rows.first()).toBeVisible();
  await shot(page, 'home-hot-words');
  await page.getByRole('tab', { name: '轮播广告' }).click();
  await expect(page.getByText('首页轮播广告')).toBeVisible();
  await expect(rows.first()).toBeVisible();
  await shot(page, 'home-ads');

  // A new ad: its picture uploaded with its fields (multipart), then it is last in the carousel.
  const ads = await rows.count();
  await page.getByRole('button', { name: '添加广告' }).click();
  const picture = await sharp({ create: { width: 750, height: 300, channels: 3, background: '#ff6b81' } })
    .png()
    .toBuffer();
  const dialog = page.getByRole('dialog', { name: '添加广告' });
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'ad.png', mimeType: 'image/png', buffer: picture });
  await dialog.getByLabel('书籍 ID').fill(String(first.id));
  await shot(page, 'home-ads-add');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(rows).toHaveCount(ads + 1);
  await expect(rows.last()).toContainText(`书籍 ID ${first.id}`);
  await expect(rows.last().locator('img')).toHaveJSProperty('complete', true);
  expect(
    await rows
      .last()
      .locator('img')
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);

  await page.goto('/admin/branches');
  await expect(rows.first()).toBeVisible();
  await shot(page, 'branches');

  await page.goto('/admin/complaints');
  await expect(rows.first()).toContainText('内容违规');
  await shot(page, 'complaints');

  await page.goto('/admin/operators');
  await expect(rows.filter({ hasText: operators.owner.name })).toBeVisible();
  await shot(page, 'operators');
  await page.getByRole('button', { name: '添加操作员' }).click();
  const name = `editor-${Date.now().toString(36)}`;
  await page.getByLabel('用户名').fill(name);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByTestId('new-password')).toHaveText(/^\S{8,}$/);
  await shot(page, 'operators-password');
  await page.getByRole('button', { name: '我已保存' }).click();
  await expect(rows.filter({ hasText: name })).toBeVisible();

  // The newest 添加操作员 (operator.add) row (another spec may have written since: the newest row of all may be its).
  await page.goto('/admin/audit');
  const added = rows.filter({ hasText: '添加操作员' }).first();
  await expect(added).toBeVisible();
  await added.locator('.ant-table-row-expand-icon').click();
  await expect(page.getByText('修改后')).toBeVisible();
  await shot(page, 'audit');
  expect(errors).toEqual([]);
});
