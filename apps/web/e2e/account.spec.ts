import { type Browser, expect, type Page, test } from '@playwright/test';
import { shot, waitForVisitor } from './support.ts';

/** What this device stores about its reader (docs/decisions.md, local storage key ym-user). */
async function storedUser(page: Page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('ym-user') ?? '{}').state);
}

/** A new visitor on a phone of their own, on the account page, registered. */
async function visitor(browser: Browser, path = '/user') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(path);
  await waitForVisitor(page);
  return { context, page };
}

/** The account and password the account page shows. */
async function shownCredentials(page: Page) {
  await page.goto('/user');
  const account = page.getByTestId('user-account');
  await expect(account).not.toHaveText('—');
  const password = page.getByTestId('user-password');
  await expect(password).not.toHaveText('—');
  return { account: (await account.textContent()) ?? '', password: (await password.textContent()) ?? '' };
}

/**
 * A screenshot of the settled screen: the slide-in (CSS) and antd-mobile's spring animations (toasts,
 * dialogs, pickers) have finished.
 */
async function settledShot(page: Page, name: string) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.waitForTimeout(400);
  await shot(page, name);
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

/**
 * Buys the first pack of a type through the real sandbox: pay apply (302 to the sandbox cashier), then its
 * confirm button; the gateway notifies the server on its own, as a real one would.
 */
async function payInSandbox(page: Page, type: 'coin' | 'vip', userId: number, returnUrl: string) {
  const recharge = (await (await page.request.get('/api/user/recharge?appType=wap_browser')).json()).data;
  const pack = recharge.payConfigs.find((c: { type: string }) => c.type === type);
  const channel = recharge.subTypes[0];
  const tenths = Math.round(channel.discount * 10);
  const query = new URLSearchParams({
    rechargerAmount: String(Math.floor((pack.amountLevel * tenths + 50) / 100)),
    payPurposeId: String(pack.id),
    payChannel: channel.subTypeCode,
    payPurpose: type,
    userId: String(userId),
    appType: 'wap_browser',
    vueReturnUrl: returnUrl,
  });
  // Pay apply answers navigations from our own pages only, as the recharge centre makes them.
  await page.evaluate((url) => window.location.assign(url), `/h5/pay/apply?${query}`);
  await expect(page.getByRole('button', { name: '确认支付' })).toBeVisible();
  // The cashier shows the merchant order number, which find-account asks for.
  const orderNo = (await page.locator('[data-order-no]').textContent()) ?? '';
  expect(orderNo).toMatch(/^YM\d{8}[0-9A-F]{16}$/);
  if (type === 'coin') await settledShot(page, 'account-pay-cashier');
  await page.getByRole('button', { name: '确认支付' }).click();
  // The cashier hands the browser back to the site (its public origin, which need not be 127.0.0.1 here).
  await page.waitForURL(/\/(user|home)$/);
  return { ...(pack as { itemCount: number; presentCount: number }), orderNo };
}

const uniqueMobile = () => `139${String(Date.now()).slice(-8)}`;

test('the account page shows the account, password, balance and VIP state, read again on opening', async ({
  page,
}) => {
  await page.goto('/home');
  await waitForVisitor(page);
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
  await page.goto('/user/login');
  await waitForVisitor(page);
  const { userInfo } = await storedUser(page);
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

test('a second visitor logs in with the account and password the first one is shown', async ({ browser }) => {
  const first = await visitor(browser);
  const { account, password } = await shownCredentials(first.page);

  const second = await visitor(browser, '/user/login');
  expect((await storedUser(second.page)).userInfo.account).not.toBe(account);
  await logIn(second.page, account, password);
  await expect(second.page.getByText('登录成功')).toBeVisible();
  await settledShot(second.page, 'account-login-success');
  await second.page.getByRole('button', { name: '确定' }).click();

  await expect(second.page).toHaveURL(/\/user$/);
  await expect(second.page.getByTestId('user-account')).toHaveText(account);
  await expect(second.page.getByTestId('user-password')).toHaveText(password);
  expect((await storedUser(second.page)).userInfo.account).toBe(account);
  // The session is the account's: a personal call answers for it.
  const info = await second.page.evaluate(() => fetch('/api/user/info').then((r) => r.json()));
  expect(info.data.account).toBe(account);
  await expect(second.page.locator('.adm-dialog')).toBeHidden();
  await settledShot(second.page, 'account-user-after-login');

  // The first device stays signed in.
  await first.page.reload();
  await expect(first.page.getByTestId('user-account')).toHaveText(account);
  await first.context.close();
  await second.context.close();
});

test('bind mobile: both validation messages, success, the number shown, and login by it', async ({
  browser,
  page,
}) => {
  await page.goto('/user/bind');
  await waitForVisitor(page);
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
  const other = await visitor(browser, '/user/bind');
  await other.page.getByPlaceholder('请输入11位手机号').fill(mobile);
  await other.page.getByRole('button', { name: '绑定' }).click();
  const dialog = other.page.locator('.adm-dialog');
  await expect(dialog).toContainText('该手机号已绑定其他账号');
  await settledShot(other.page, 'account-bind-taken');
  await dialog.getByRole('button', { name: '确定' }).click();

  // The bound number logs in like the account name.
  await logIn(other.page, mobile, password);
  await other.page.getByRole('button', { name: '确定' }).click();
  await expect(other.page).toHaveURL(/\/user$/);
  await expect(other.page.getByTestId('user-account')).toHaveText((await storedUser(page)).userInfo.account);
  await other.context.close();
});

test('change password: the three messages, success, and the new password logs in elsewhere', async ({
  browser,
  page,
}) => {
  await page.goto('/user/password');
  await waitForVisitor(page);
  const { userInfo, password: oldPassword } = await storedUser(page);
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

  const elsewhere = await visitor(browser, '/user/login');
  await logIn(elsewhere.page, userInfo.account, oldPassword);
  await expectAlert(elsewhere.page, '账户或密码不正确');
  await logIn(elsewhere.page, userInfo.account, newPassword);
  await elsewhere.page.getByRole('button', { name: '确定' }).click();
  await expect(elsewhere.page.getByTestId('user-account')).toHaveText(userInfo.account);
  await expect(elsewhere.page.getByTestId('user-password')).toHaveText(newPassword);
  await elsewhere.context.close();
});

test('find account: no date says so; a visitor without payments is not found', async ({ page }) => {
  await page.goto('/user/find-account');
  await waitForVisitor(page);
  const before = await storedUser(page);
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
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const [y, m, d] = today.split('-');
  await expect(picker).toHaveText(`${y}年${m}月${d}日`);

  await page.getByRole('button', { name: '找回账号' }).click();
  await expectAlert(page, '请输入订单号');
  await page.getByPlaceholder('请输入商户订单号').fill('YM20240101AAAABBBBCCCCDDDD');
  const call = page.waitForRequest((r) => r.url().includes('/api/user/find_account'));
  await page.getByRole('button', { name: '找回账号' }).click();
  // The fields travel in the form body, not in the address.
  const sent = await call;
  expect(new URL(sent.url()).search).toBe('');
  expect(new URLSearchParams(sent.postData() ?? '').get('chargeTime')).toBe(today);
  expect(new URLSearchParams(sent.postData() ?? '').get('orderNo')).toBe('YM20240101AAAABBBBCCCCDDDD');
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
  await page.goto('/user');
  await waitForVisitor(page);
  await page.getByRole('link', { name: '消费记录' }).click();
  await expect(page).toHaveURL(/\/user\/purchase\/history$/);
  await expect(page.locator('.adm-nav-bar-title')).toHaveText('消费记录');
  await expect(page.getByText('暂时没有记录')).toBeVisible();
  await settledShot(page, 'account-records-empty');
});

test('find account by the date and order number of a real sandbox payment, from another phone', async ({
  browser,
  baseURL,
}) => {
  // The payer: a visitor who buys a coin pack through the sandbox cashier, which shows the order number.
  const { page } = await visitor(browser, '/user');
  const payer = (await storedUser(page)).userInfo;
  const pack = await payInSandbox(page, 'coin', payer.userId, `${baseURL}/user`);
  const coins = pack.itemCount + pack.presentCount;
  // The sandbox notifies the server asynchronously; the account page reads the balance when it opens.
  await expect(async () => {
    await page.goto('/user');
    await expect(page.getByTestId('user-coins')).toHaveText(String(coins), { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });

  // The old attack: the payer's trace id and the date, from the same address, no longer find anything.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const attacker = await visitor(browser, '/user/find-account');
  const attempt = await attacker.page.request.post('/api/user/find_account', {
    headers: { 'x-trace-id': payer.visitorId },
    form: { chargeTime: today, orderNo: `YM${today.replaceAll('-', '')}${'0'.repeat(16)}` },
  });
  expect((await attempt.json()).code).toBe(404);
  await attacker.context.close();

  // Another phone finds the account with today's China date and the order number.
  const finder = await visitor(browser, '/user/find-account');
  await finder.page.getByRole('button', { name: '扣款日期' }).click();
  await finder.page.locator('.adm-picker-header-button', { hasText: '确定' }).click();
  await finder.page.getByPlaceholder('请输入商户订单号').fill(pack.orderNo);
  await settledShot(finder.page, 'account-find-filled');
  const answer = finder.page.waitForResponse((r) => r.url().includes('/api/user/find_account'));
  await finder.page.getByRole('button', { name: '找回账号' }).click();
  expect(new URLSearchParams((await answer).request().postData() ?? '').get('chargeTime')).toBe(today);
  await expect(finder.page.getByTestId('found-account')).toHaveText(payer.account);
  const newPassword = (await finder.page.getByTestId('found-password').textContent()) ?? '';
  expect(newPassword.length).toBeGreaterThanOrEqual(12);
  await settledShot(finder.page, 'account-find-found');

  await finder.page.getByRole('button', { name: '保存并登录' }).click();
  await expect(finder.page).toHaveURL(/\/user$/);
  await expect(finder.page.getByTestId('user-account')).toHaveText(payer.account);
  await expect(finder.page.getByTestId('user-password')).toHaveText(newPassword);
  await expect(finder.page.getByTestId('user-coins')).toHaveText(String(coins));
  await settledShot(finder.page, 'account-user-after-find');

  // The records of the account found: the pack bought (and its bonus, when it has one).
  await finder.page.getByRole('link', { name: '消费记录' }).click();
  const records = finder.page.getByTestId('records');
  await expect(records.getByRole('listitem').first()).toBeVisible();
  await expect(records).toContainText(`+${pack.itemCount}阅币`);
  await settledShot(finder.page, 'account-records');

  // The new password logs in anywhere; the payer's old one no longer does.
  const third = await visitor(browser, '/user/login');
  await logIn(third.page, payer.account, newPassword);
  await expect(third.page.getByText('登录成功')).toBeVisible();
  await finder.context.close();
  await third.context.close();
});

test('a VIP reader sees the VIP expiry and no VIP sales banner', async ({ page, baseURL }) => {
  await page.goto('/user');
  await waitForVisitor(page);
  await expect(page.getByText('开通VIP，海量漫画免费看')).toBeVisible();
  const { userInfo } = await storedUser(page);
  const { orderNo } = await payInSandbox(page, 'vip', userInfo.userId, `${baseURL}/user`);
  await expect(async () => {
    await page.goto('/user');
    // Said on failure: whether the server has the payment (the notifier) and what it says of the user (the page).
    const state = async () =>
      JSON.stringify({
        orderNo,
        lastPaid: (await (await page.request.get('/api/pay/last_paid_order')).json()).data,
        vipType: (await (await page.request.get('/api/user/info')).json()).data?.vipType,
      });
    await expect(page.getByTestId('user-vip'), await state()).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText('VIP', { exact: true })).toBeVisible();
  await expect(page.getByText('开通VIP，海量漫画免费看')).toBeHidden();
  await settledShot(page, 'account-user-vip');
});
