import { apiData } from './api.ts';
import { expect, test } from './fixtures.ts';
import { openAsVisitor, PC, shot, WECHAT } from './support.ts';

test('a PC browser lands on the PC page with a QR code of the site', async ({ device, baseURL }) => {
  const page = await device(PC);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/pc$/);
  const qr = page.getByRole('img', { name: '阅漫手机版二维码' });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await expect(page.getByText('请使用手机扫描二维码访问')).toBeVisible();
  await expect(page.getByText(`${baseURL}/home`, { exact: true })).toBeVisible();
  await shot(page, 'pc');
});

test('a WeChat browser lands on the open-in-browser prompt', async ({ device, baseURL }) => {
  const page = await device(WECHAT);
  await page.goto('/book/1');
  await expect(page.getByText('在浏览器打开')).toBeVisible();
  // The prompt's address (/open-in-browser?from=…) becomes the one-time link as soon as the link is made (WeChat's
  // 在浏览器打开 opens the address the page is at): either may be seen, depending on how soon the link came.
  await expect(page).toHaveURL(
    new RegExp(
      `^${baseURL}/(open-in-browser\\?from=%2Fbook%2F1|handoff\\?token=[A-Za-z0-9_-]{43}&to=%2Fbook%2F1)$`,
    ),
  );
  await expect(page.getByText('···')).toBeVisible();
  // The address to copy is a one-time link that keeps the account (e2e/handoff.spec.ts follows it).
  await expect(page.locator('.oib-address')).toHaveText(
    new RegExp(`^${baseURL}/handoff\\?token=[A-Za-z0-9_-]{43}&to=%2Fbook%2F1$`),
  );
  await shot(page, 'open-in-browser');
});

test('the report page links only the service address common info gives', async ({ page }) => {
  const info = await apiData<{ customerServiceQQ: string }>(page.request, '/api/common/info/v2/-2');
  const ours = `mqqwpa://im/chat?chat_type=wpa&uin=${info.customerServiceQQ}`;
  for (const foreign of ['https://evil.example/kefu', 'mqqwpa://im/chat?chat_type=wpa&uin=10001']) {
    await openAsVisitor(page, `/h5/report?serviceUrl=${encodeURIComponent(foreign)}`);
    await expect(page.getByRole('link', { name: '联系在线客服' })).toHaveAttribute('href', ours);
  }
  await page.goto(`/h5/report?serviceUrl=${encodeURIComponent(ours)}`);
  await expect(page.getByRole('link', { name: '联系在线客服' })).toHaveAttribute('href', ours);
  await expect(page.locator('a[href*="evil.example"]')).toHaveCount(0);
});

test('a complaint is stored and the reader returns to vueReturnUrl', async ({ page }) => {
  await openAsVisitor(page, `/h5/report?vueReturnUrl=${encodeURIComponent('/shelf?active=history')}`);
  await expect(page.getByRole('link', { name: '联系在线客服' })).toHaveAttribute('href', /^mqqwpa:/);
  await page.getByRole('button', { name: '提交' }).click();
  await expect(page.getByText('请选择投诉原因')).toBeVisible();
  await page.getByText('侵权盗版').click();
  await page.getByPlaceholder('请描述您遇到的问题（选填）').fill('第3话的图片来自别的网站');
  await page.getByPlaceholder('手机号、QQ或邮箱（选填）').fill('13800000000');
  await shot(page, 'report');
  const answered = page.waitForResponse((r) => r.url().includes('/api/support/report'));
  await page.getByRole('button', { name: '提交' }).click();
  const res = await answered;
  const body = await res.json();
  expect(body.result).toBe(true);
  expect(body.data.id).toBeGreaterThan(0);
  const sent = new URLSearchParams(res.request().postData() ?? '');
  expect(Object.fromEntries(sent)).toEqual({
    reason: '侵权盗版',
    content: '第3话的图片来自别的网站',
    contact: '13800000000',
    pageUrl: '/shelf?active=history',
  });
  await expect(page.getByText('提交成功，感谢您的反馈')).toBeVisible();
  await expect(page).toHaveURL(/\/shelf\?active=history$/);
});

for (const evil of ['https://evil.example', '//evil.example/home', '/\\evil.example']) {
  test(`a vueReturnUrl of ${evil} returns to /home instead`, async ({ page }) => {
    await openAsVisitor(page, `/h5/report?vueReturnUrl=${encodeURIComponent(evil)}`);
    await page.getByText('其他').click();
    const answered = page.waitForResponse((r) => r.url().includes('/api/support/report'));
    await page.getByRole('button', { name: '提交' }).click();
    expect((await (await answered).json()).result).toBe(true);
    await expect(page).toHaveURL(/\/home$/);
  });
}

test('the account tab shows account, password, coins, VIP expiry and service hours', async ({ page }) => {
  const user = await openAsVisitor(page, '/user');
  await expect(page.getByTestId('user-account')).toHaveText(user.userInfo.account);
  await expect(page.getByTestId('user-password')).toHaveText(user.password);
  await expect(page.getByTestId('user-coins')).toHaveText(String(user.userInfo.avaliableAmount));
  await expect(page.getByTestId('user-vip')).toHaveText('未开通');
  await expect(page.getByText('客服在线时间：11:00-21:00')).toBeVisible();
  await expect(page.getByRole('link', { name: '投诉举报' })).toBeVisible();
  await shot(page, 'user');
});
