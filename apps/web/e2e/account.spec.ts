import type { Page } from '@playwright/test';
import { userInfo } from './api.ts';
import { expect, test } from './fixtures.ts';
import { payInSandbox } from './pay.ts';
import { chinaDate, openAsVisitor, settledShot, storedUser } from './support.ts';

/** The account and password the account page shows. */
async function shownCredentials(page: Page) {
  await page.goto('/user');
  const account = page.getByTestId('user-account');
  await expect(account).not.toHaveText('—');
  const password = page.getByTestId('user-password');
  await expect(password).not.toHaveText('—');
  return { account: (await account.textContent()) ?? '', password: (await password.textContent()) ?? '' };
}

/** The spec's modal alert: shown, then gone after about 1.5 s (its mask blocks taps meanwhile). */
async function expectAlert(page: Page, text: string, screenshot?: string) {
  const alert = page.locator('.adm-toast-main').getByText(text, { exact: true });
  await expect(alert).toBeVisible();
  if (screenshot) await settledShot(page, screenshot);
  await expect(alert).toBeHidden({ timeout: 5_000 });
}

async function logIn(page: Page, account: string, password: string) {
  await page.goto('/user/login');
  await page.getByPlaceholder('请输入账号或手机号').fill(account);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
}

const uniqueMobile = () => `139${String(Date.now()).slice(-8)}`;

test('the account page shows the account, password, balance and VIP state, read again on opening', async ({
  page,
}) => {
  await openAsVisitor(page, '/home');
  const infoCall = page.waitForResponse((r) => r.url().includes('/api/user/info'));
  await page.goto('/user');
  expect((await infoCall).status()).toBe(200);

  const stored = await storedUser(page);
  await expect(page.getByTestId('user-account')).toHaveText(stored.userInfo.account);
  await expect(page.getByTestId('user-password')).toHaveText(stored.password);
  expect(stored.password.length).toBeGreaterThanOrEqual(12);
  await expect(page.getByTestId('user-coins')).toHaveText('0');
  await expect(page.getByTestId('user-vip')).toHaveText('未开通');
  await expect(page.getByText('开通VIP，海量漫画免费看')).toBeVisible();
  for (const link of ['切换账号', '绑定手机', '修改密码', '找回充值账号', '消费记录', '充值'])
    await expect(page.getByRole('link', { name: link, exact: true })).toBeVisible();
  await expect(page.getByText('客服在线时间：11:00-21:00')).toBeVisible();
  await settledShot(page, 'account-user');
});

test('login: empty account, empty password and a wrong password each say so', async ({ page }) => {
  const { userInfo } = await openAsVisitor(page, '/user/login');
  await expect(page.getByPlaceholder('请输入账号或手机号')).toBeVisible();
  await settledShot(page, 'account-login');
  const submit = page.getByRole('button', { name: '登录' });

  await submit.click();
  await expectAlert(page, '请输入手机号', 'account-login-no-account');
  await page.getByPlaceholder('请输入账号或手机号').fill(userInfo.account);
  await submit.click();
  await expectAlert(page, '请输入密码');
  await page.getByPlaceholder('请输入密码').fill('not-the-password');
  await submit.click();
  await expectAlert(page, '账户或密码不正确', 'account-login-wrong');
  await expect(page).toHaveURL(/\/user\/login$/);
});

test('a second visitor logs in with the account and password the first one is shown', async ({
  newVisitor,
}) => {
  const first = await newVisitor('/user');
  const { account, password } = await shownCredentials(first);

  const second = await newVisitor('/user/login');
  expect((await storedUser(second)).userInfo.account).not.toBe(account);
  await logIn(second, account, password);
  await expect(second.getByText('登录成功')).toBeVisible();
  await settledShot(second, 'account-login-success');
  await second.getByRole('button', { name: '确定' }).click();

  await expect(second).toHaveURL(/\/user$/);
  await expect(second.getByTestId('user-account')).toHaveText(account);
  await expect(second.getByTestId('user-password')).toHaveText(password);
  expect((await storedUser(second)).userInfo.account).toBe(account);
  // The session is the account's: a personal call answers for it.
  expect((await userInfo(second)).account).toBe(account);
  await expect(second.locator('.adm-dialog')).toBeHidden();
  await settledShot(second, 'account-user-after-login');

  // The first device stays signed in.
  await first.reload();
  await expect(first.getByTestId('user-account')).toHaveText(account);
});

test('bind mobile: both validation messages, success, the number shown, and login by it', async ({
  page,
  newVisitor,
}) => {
  await openAsVisitor(page, '/user/bind');
  const input = page.getByPlaceholder('请输入11位手机号');
  await expect(input).toBeVisible();
  await settledShot(page, 'account-bind');
  const submit = page.getByRole('button', { name: '绑定' });

  await submit.click();
  await expectAlert(page, '请输入手机号');
  await input.fill('2380013800');
  await submit.click();
  await expectAlert(page, '请输入正确的手机号', 'account-bind-invalid');

  const mobile = uniqueMobile();
  await input.fill(mobile);
  await submit.click();
  await expectAlert(page, '手机绑定成功', 'account-bind-success');
  await expect(page.getByTestId('bound-mobile')).toContainText(mobile);
  await page.goto('/user');
  await expect(page.getByText(`已绑定手机 ${mobile}`)).toBeVisible();
  await expect(page.locator('.user-menu-value')).toHaveText(mobile);
  const { password } = await storedUser(page);

  // Another visitor cannot take the number: the server's refusal shows in a dialog.
  const other = await newVisitor('/user/bind');
  await other.getByPlaceholder('请输入11位手机号').fill(mobile);
  await other.getByRole('button', { name: '绑定' }).click();
  const dialog = other.locator('.adm-dialog');
  await expect(dialog).toContainText('该手机号已绑定其他账号');
  await settledShot(other, 'account-bind-taken');
  await dialog.getByRole('button', { name: '确定' }).click();

  // The bound number logs in like the account name.
  await logIn(other, mobile, password);
  await other.getByRole('button', { name: '确定' }).click();
  await expect(other).toHaveURL(/\/user$/);
  await expect(other.getByTestId('user-account')).toHaveText((await storedUser(page)).userInfo.account);
});

test('change password: the three messages, success, and the new password logs in elsewhere', async ({
  page,
  newVisitor,
}) => {
  const { userInfo, password: oldPassword } = await openAsVisitor(page, '/user/password');
  const fresh = page.getByPlaceholder('请输入新密码');
  await expect(fresh).toBeVisible();
  await settledShot(page, 'account-password');
  const confirm = page.getByPlaceholder('请再次输入新密码');
  const submit = page.getByRole('button', { name: '确认修改' });

  await submit.click();
  await expectAlert(page, '请输入密码');
  await fresh.fill('新的密码-2025');
  await submit.click();
  await expectAlert(page, '请确认密码');
  await confirm.fill('新的密码-2024');
  await submit.click();
  await expectAlert(page, '密码不一致，请确认', 'account-password-mismatch');

  const newPassword = '新的密码-2025';
  await confirm.fill(newPassword);
  await submit.click();
  await expect(page.getByText('密码修改成功')).toBeVisible();
  await settledShot(page, 'account-password-success');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByTestId('user-password')).toHaveText(newPassword);
  await expect(page.locator('.adm-dialog')).toBeHidden();
  await settledShot(page, 'account-user-new-password');

  const elsewhere = await newVisitor('/user/login');
  await logIn(elsewhere, userInfo.account, oldPassword);
  await expectAlert(elsewhere, '账户或密码不正确');
  await logIn(elsewhere, userInfo.account, newPassword);
  await elsewhere.getByRole('button', { name: '确定' }).click();
  await expect(elsewhere.getByTestId('user-account')).toHaveText(userInfo.account);
  await expect(elsewhere.getByTestId('user-password')).toHaveText(newPassword);
});

test('find account: no date says so; a visitor without payments is not found', async ({ page }) => {
  const before = await openAsVisitor(page, '/user/find-account');
  await expect(page.getByText('客服在线时间：9:30 ~ 21:00')).toBeVisible();
  await expect(page.getByRole('link', { name: '投诉举报' })).toBeVisible();
  await settledShot(page, 'account-find');

  await page.getByRole('button', { name: '找回账号' }).click();
  await expectAlert(page, '请选择您的充值扣款日期');

  const picker = page.getByRole('button', { name: '扣款日期' });
  await expect(picker).toHaveText('请选择您的充值扣款日期');
  await picker.click();
  await expect(page.locator('.adm-picker')).toBeVisible();
  await settledShot(page, 'account-find-picker');
  await page.locator('.adm-picker-header-button', { hasText: '确定' }).click();
  const today = chinaDate();
  const [y, m, d] = today.split('-');
  await expect(picker).toHaveText(`${y}年${m}月${d}日`);

  await page.getByRole('button', { name: '找回账号' }).click();
  await expectAlert(page, '请输入订单号');
  await page.getByPlaceholder('请输入商户订单号').fill('YM20240101AAAABBBBCCCCDDDD');
  await page.getByRole('button', { name: '找回账号' }).click();
  await expectAlert(page, '请输入支付金额');
  await page.getByPlaceholder('请输入实付金额（元）').fill('30');
  const call = page.waitForRequest((r) => r.url().includes('/api/user/find_account'));
  await page.getByRole('button', { name: '找回账号' }).click();
  // The fields travel in the form body, not in the address.
  const sent = await call;
  expect(new URL(sent.url()).search).toBe('');
  expect(new URLSearchParams(sent.postData() ?? '').get('chargeTime')).toBe(today);
  expect(new URLSearchParams(sent.postData() ?? '').get('orderNo')).toBe('YM20240101AAAABBBBCCCCDDDD');
  expect(new URLSearchParams(sent.postData() ?? '').get('payAmount')).toBe('30');
  const dialog = page.locator('.adm-dialog');
  await expect(dialog).toHaveText(
    /对不起，您的充值账号未找到，您可以联系客服帮忙找回（客服在线时间：9:30 ~ 21:00）/,
  );
  await settledShot(page, 'account-find-not-found');
  await dialog.getByRole('button', { name: '确定' }).click();
  // Nothing changed hands.
  expect((await storedUser(page)).userInfo.account).toBe(before.userInfo.account);
});

test('consumption records of a new visitor show the empty state', async ({ page }) => {
  await openAsVisitor(page, '/user');
  await page.getByRole('link', { name: '消费记录' }).click();
  await expect(page).toHaveURL(/\/user\/purchase\/history$/);
  await expect(page.locator('.adm-nav-bar-title')).toHaveText('消费记录');
  await expect(page.getByText('暂时没有记录')).toBeVisible();
  await settledShot(page, 'account-records-empty');
});

test('find account by the date and order number of a real sandbox payment, from another phone', async ({
  page,
  newVisitor,
}) => {
  // The payer: a visitor who buys a coin pack through the sandbox cashier, which shows the order number.
  const payer = (await openAsVisitor(page, '/user')).userInfo;
  const pack = await payInSandbox(page, 'coin', 'account-pay-cashier');
  const coins = pack.itemCount + pack.presentCount + (pack.firstPayBonus ?? 0);
  // Once the sandbox's notification is in, the account page reads the balance when it opens.
  await page.goto('/user');
  await expect(page.getByTestId('user-coins')).toHaveText(String(coins));

  // The old attack: the payer's trace id and the date, from the same address, no longer find anything.
  const today = chinaDate();
  const attacker = await newVisitor('/user/find-account');
  const attempt = await attacker.request.post('/api/user/find_account', {
    headers: { 'x-trace-id': payer.visitorId },
    form: {
      chargeTime: today,
      orderNo: `YM${today.replaceAll('-', '')}${'0'.repeat(16)}`,
      payAmount: (pack.paid / 100).toFixed(2),
    },
  });
  expect((await attempt.json()).code).toBe(404);

  // Another phone finds the account with today's China date and the order number.
  const finder = await newVisitor('/user/find-account');
  await finder.getByRole('button', { name: '扣款日期' }).click();
  await finder.locator('.adm-picker-header-button', { hasText: '确定' }).click();
  await finder.getByPlaceholder('请输入商户订单号').fill(pack.orderNo);
  await finder.getByPlaceholder('请输入实付金额（元）').fill((pack.paid / 100).toFixed(2));
  await settledShot(finder, 'account-find-filled');
  const answer = finder.waitForResponse((r) => r.url().includes('/api/user/find_account'));
  await finder.getByRole('button', { name: '找回账号' }).click();
  expect(new URLSearchParams((await answer).request().postData() ?? '').get('chargeTime')).toBe(today);
  await expect(finder.getByTestId('found-account')).toHaveText(payer.account);
  const newPassword = (await finder.getByTestId('found-password').textContent()) ?? '';
  expect(newPassword.length).toBeGreaterThanOrEqual(12);
  await settledShot(finder, 'account-find-found');

  await finder.getByRole('button', { name: '保存并登录' }).click();
  await expect(finder).toHaveURL(/\/user$/);
  await expect(finder.getByTestId('user-account')).toHaveText(payer.account);
  await expect(finder.getByTestId('user-password')).toHaveText(newPassword);
  await expect(finder.getByTestId('user-coins')).toHaveText(String(coins));
  await settledShot(finder, 'account-user-after-find');

  // The records of the account found: the pack bought (and its bonus, when it has one).
  await finder.getByRole('link', { name: '消费记录' }).click();
  const records = finder.getByTestId('records');
  await expect(records.getByRole('listitem').first()).toBeVisible();
  await expect(records).toContainText(`+${pack.itemCount}阅币`);
  await settledShot(finder, 'account-records');

  // The new password logs in anywhere; the payer's old one no longer does.
  const third = await newVisitor('/user/login');
  await logIn(third, payer.account, newPassword);
  await expect(third.getByText('登录成功')).toBeVisible();
});

test('a VIP reader sees the VIP expiry and no VIP sales banner', async ({ page }) => {
  await openAsVisitor(page, '/user');
  await expect(page.getByText('开通VIP，海量漫画免费看')).toBeVisible();
  // Waiting for the credit says, on failure, whether the server has the payment and what it says of the user.
  await payInSandbox(page, 'vip');
  await page.goto('/user');
  await expect(page.getByTestId('user-vip')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await expect(page.getByText('VIP', { exact: true })).toBeVisible();
  await expect(page.getByText('开通VIP，海量漫画免费看')).toBeHidden();
  await settledShot(page, 'account-user-vip');
});
