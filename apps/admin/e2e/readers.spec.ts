import { expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// The console's readers: one search box finds a reader by account name; the reader page shows their coins and
// lists; an owner grants coins with a reason and sees the balance and the transfer; customer service resets a
// password (shown once) and the reader's own sessions end.

async function newReader(playwright: import('@playwright/test').PlaywrightWorkerArgs['playwright']) {
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const registered = await (await reader.post('/api/user/register')).json();
  const { account, password } = registered.data as { account: string; password: string };
  return { reader, account, password };
}

test('an owner finds a reader by account name, grants coins with a reason, and sees the balance and the transfer', async ({
  page,
  operators,
  playwright,
}) => {
  const { reader, account } = await newReader(playwright);
  await logIn(page, operators.owner);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('读者', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/readers$/);
  await page.getByLabel('查找读者').fill(account);
  await shot(page, 'readers-search');
  await page.getByRole('button', { name: /查\s*找/ }).click();

  await expect(page).toHaveURL(/\/admin\/readers\/\d+$/);
  await expect(page.getByText(`读者 ${account}`)).toBeVisible();
  await expect(page.getByTestId('reader-balance')).toHaveText('0');
  await shot(page, 'reader-page');

  await page.getByRole('button', { name: /调整阅币/ }).click();
  const dialog = page.getByRole('dialog', { name: `调整读者 ${account} 的阅币` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('阅币').fill('100');
  // No reason, no grant.
  await dialog.getByRole('button', { name: /确认调整/ }).click();
  await expect(dialog.getByText('请填写原因')).toBeVisible();
  await dialog.getByLabel('原因').fill('充值未到账，核对订单后补发');
  await shot(page, 'reader-grant-coins');
  await dialog.getByRole('button', { name: /确认调整/ }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('已补发 100 阅币')).toBeVisible();
  await expect(page.getByTestId('reader-balance')).toHaveText('100');

  await page.getByRole('tab', { name: '阅币流水' }).click();
  const transfers = page.getByRole('tabpanel', { name: '阅币流水' });
  await expect(transfers).toContainText('客服补发');
  await expect(transfers).toContainText('+100');
  await expect(transfers).toContainText('运营调整');
  await expect(transfers).not.toContainText('system:');
  await expect(transfers).toContainText('充值未到账，核对订单后补发');
  await shot(page, 'reader-transfers');

  // The reader sees the coins and the line in their own records.
  const info = await (await reader.get('/api/user/info')).json();
  expect(info.data.avaliableAmount).toBe(100);
  const records = await (await reader.get('/api/user/consumption')).json();
  expect(records.data.list[0]).toMatchObject({ title: '客服补发 100阅币', coins: 100 });
  await reader.dispose();
});

test('support resets a reader’s password with a reason; the new password is shown once and logs in', async ({
  page,
  operators,
  playwright,
}) => {
  const { reader, account, password } = await newReader(playwright);

  await logIn(page, operators.support);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('读者', { exact: true }).click();
  await page.getByLabel('查找读者').fill(account);
  await page.getByRole('button', { name: /查\s*找/ }).click();
  const found = page.locator('.ant-descriptions');
  await expect(found).toContainText(account);
  await expect(found).toContainText('未绑定');
  // Support keeps the account; coins and VIP are owners' and finance's.
  await expect(page.getByRole('button', { name: /调整阅币/ })).toHaveCount(0);

  await page.getByRole('button', { name: /重置密码/ }).click();
  const dialog = page.getByRole('dialog', { name: `重置读者 ${account} 的密码` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /重置密码/ }).click();
  await expect(dialog.getByText('请填写原因')).toBeVisible();
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

test('support blocks a reader with a reason; the page says so and the reader’s pay apply is refused with the sentence why', async ({
  page,
  operators,
  playwright,
}) => {
  const { reader, account } = await newReader(playwright);
  await logIn(page, operators.support);
  await page.goto(`/admin/readers?q=${account}`);
  await page.getByRole('button', { name: /查\s*找/ }).click();
  await expect(page.getByText(`读者 ${account}`)).toBeVisible();

  await page.getByRole('button', { name: /封\s*禁/ }).click();
  const dialog = page.getByRole('dialog', { name: `封禁读者 ${account}` });
  await dialog.getByLabel('原因').fill('疑似盗刷，待核实');
  await dialog.getByRole('button', { name: /封\s*禁/ }).click();
  await expect(page.getByText('已封禁充值和购买（')).toBeVisible();
  await expect(page.getByText('原因：疑似盗刷，待核实')).toBeVisible();
  await shot(page, 'reader-blocked');

  // The reader's pay apply is refused with the sentence that says why.
  const refused = await (
    await reader.get(
      '/h5/pay/apply?payPurposeId=1&payPurpose=coin&payChannel=wechat_h5&rechargerAmount=570',
      {
        maxRedirects: 0,
      },
    )
  ).json();
  expect(refused).toMatchObject({ result: false, code: 403 });
  expect(refused.msg).toContain('暂停充值和购买');

  await page.getByRole('button', { name: /解除封禁/ }).click();
  const undo = page.getByRole('dialog', { name: `解除读者 ${account} 的封禁` });
  await undo.getByLabel('原因').fill('已核实为本人');
  await undo.getByRole('button', { name: /解除封禁/ }).click();
  await expect(page.getByText('已封禁充值和购买（')).toHaveCount(0);
  await reader.dispose();
});
