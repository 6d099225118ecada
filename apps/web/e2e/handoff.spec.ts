import { expect, test } from './fixtures.ts';
import { settledShot, storedUser, WECHAT, waitForVisitor } from './support.ts';

// Out of WeChat without losing the account: the prompt's address is a one-time link; opened in the phone's own
// browser it continues as the same account at the page the reader was opening; a second use does nothing: it says the
// link expired and offers login, and no visitor account is made unless the reader chooses to browse on.

const LINK = /\/handoff\?token=[A-Za-z0-9_-]{43}&to=/;

async function linkFromWechat(page: import('@playwright/test').Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/open-in-browser/);
  const address = page.locator('.oib-address');
  await expect(address).toHaveText(LINK);
  return (await address.textContent()) ?? '';
}

test('the prompt’s link continues the WeChat account in the system browser, once', async ({ device }) => {
  const wechat = await device(WECHAT);
  const link = await linkFromWechat(wechat, '/book/1');
  const inWechat = await waitForVisitor(wechat);
  // WeChat's 在浏览器打开 takes the page's own address: it is the link too.
  expect(wechat.url()).toBe(link);
  await expect(wechat.getByText('链接10分钟内有效')).toBeVisible();
  await settledShot(wechat, 'handoff-prompt');

  // A browser with no account of its own takes the link's at once, at the page the reader was opening.
  const browser = await device();
  await browser.goto(link);
  await expect(browser).toHaveURL(/\/book\/1$/);
  await expect(browser.getByText(`已继续使用账号 ${inWechat.userInfo.account}`)).toBeVisible();
  await expect.poll(async () => (await storedUser(browser)).userInfo?.userId).toBe(inWechat.userInfo.userId);
  const info = await browser.evaluate(() => fetch('/api/user/info').then((r) => r.json()));
  expect(info.data.userId).toBe(inWechat.userInfo.userId);

  // The account page says how to get a password this browser does not know.
  await browser.goto('/user');
  const hint = browser
    .getByTestId('user-password')
    .getByRole('link', { name: '本机未保存，可在修改密码中设置' });
  await expect(hint).toBeVisible();
  await settledShot(browser, 'handoff-user-password-hint');
  await hint.click();
  await expect(browser).toHaveURL(/\/user\/password$/);

  // Useless twice: the next browser is told the link expired and offered login; no visitor is registered for it.
  const third = await device();
  const registered: string[] = [];
  third.on('request', (r) => {
    if (r.url().includes('/api/user/register')) registered.push(r.url());
  });
  await third.goto(link);
  await expect(third.getByText('链接已失效', { exact: true })).toBeVisible();
  await expect(third.getByText('链接已失效，请回到微信重新获取')).toBeVisible();
  await expect(third).toHaveURL(/\/handoff\?/);
  await settledShot(third, 'handoff-expired');
  expect(registered).toEqual([]);
  expect((await storedUser(third))?.userInfo).toBeUndefined();
  // 登录已有账号: the login screen; logged in, that account is this browser's, still with no visitor made.
  await third.getByRole('button', { name: '登录已有账号' }).click();
  await expect(third).toHaveURL(/\/user\/login$/);
  await third.getByPlaceholder('请输入账号或手机号').fill(inWechat.userInfo.account);
  await third.getByPlaceholder('请输入密码').fill(inWechat.password);
  await third.locator('form').getByRole('button', { name: '登录' }).click();
  await third.getByRole('dialog').getByRole('button', { name: '确定' }).click();
  await expect(third).toHaveURL(/\/user$/);
  await expect(third.getByTestId('user-account')).toHaveText(inWechat.userInfo.account);
  expect(registered).toEqual([]);

  // Another browser that chooses to browse on gets an account of its own.
  const fourth = await device();
  await fourth.goto(link);
  await fourth.getByRole('button', { name: '先随便看看' }).click();
  await expect(fourth).toHaveURL(/\/home$/);
  const own = await waitForVisitor(fourth);
  expect(own.userInfo.userId).not.toBe(inWechat.userInfo.userId);
});

test('a browser that holds another account asks before switching', async ({ device }) => {
  const wechat = await device(WECHAT);
  const link = await linkFromWechat(wechat, '/shelf');
  const inWechat = await waitForVisitor(wechat);
  const browser = await device();
  await browser.goto('/home');
  const mine = await waitForVisitor(browser);
  await browser.goto(link);
  const ask = browser.getByRole('dialog');
  await expect(ask).toContainText(`本浏览器当前的账号 ${mine.userInfo.account} 将退出`);
  await settledShot(browser, 'handoff-ask');
  await ask.getByRole('button', { name: '切换账号' }).click();
  await expect(browser).toHaveURL(/\/shelf$/);
  await expect.poll(async () => (await storedUser(browser)).userInfo?.userId).toBe(inWechat.userInfo.userId);
  // The password of the other account is not shown as this one's.
  expect((await storedUser(browser)).password).toBe('');
});
