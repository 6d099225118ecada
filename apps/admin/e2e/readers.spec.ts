import { expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// Customer service helps a reader who lost their account from the console (读者账号): the reset needs
// a reason, the new password is shown once, and the reader's own sessions end.

test('support resets a reader’s password with a reason; the new password is shown once and logs in', async ({
  page,
  operators,
  playwright,
}) => {
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const registered = await (await reader.post('/api/user/register')).json();
  const { account, password } = registered.data as { account: string; password: string };

  await logIn(page, operators.support);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('读者账号').click();
  await expect(page).toHaveURL(/\/admin\/readers$/);
  await page.getByLabel('查找读者').fill(account);
  await page.getByRole('button', { name: /查\s*找/ }).click();
  const found = page.locator('.ant-descriptions');
  await expect(found).toContainText(account);
  await expect(found).toContainText('未绑定');

  await found.getByRole('button', { name: /重置密码/ }).click();
  const dialog = page.getByRole('dialog', { name: `重置读者 ${account} 的密码` });
  await expect(dialog).toBeVisible();
  // No reason, no reset.
  await dialog.getByRole('button', { name: /重置密码/ }).click();
  await expect(dialog.getByText('请填写重置原因')).toBeVisible();
  await dialog.getByLabel('原因').fill('读者来电，已核对最近一笔充值的时间和金额');
  await shot(page, 'readers-reset-reason');
  await dialog.getByRole('button', { name: /重置密码/ }).click();

  const secret = page.getByTestId('reader-new-password');
  await expect(secret).toHaveText(/^[2-9a-zA-Z]{12}$/);
  const newPassword = (await secret.textContent()) ?? '';
  await shot(page, 'readers-reset-shown');
  await page.getByRole('button', { name: /我已告知/ }).click();
  await expect(secret).toHaveCount(0);

  // The reader's old session ended; the new password logs in, the old one does not.
  expect((await (await reader.get('/api/user/info')).json()).code).toBe(401);
  const login = (pw: string) =>
    reader.post('/api/user/login', { form: { account, password: pw } }).then((r) => r.json());
  expect((await login(password)).result).toBe(false);
  expect((await login(newPassword)).result).toBe(true);
  await reader.dispose();
});
