import { expect, test } from './fixtures.ts';
import { shot, waitForVisitor } from './support.ts';

test('the placeholder home says the site is being created and goes on to /home with tgId', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByText('网站建设中')).toBeVisible();
  await shot(page, 'index');
  await page.goto('/?tgId=12&visitorId=visitor-e2e-0001');
  await expect(page).toHaveURL(/\/home\?tgId=12/);
});

test('a new visitor is registered once, with the branch and visitor id from the address', async ({
  page,
}) => {
  const registers: string[] = [];
  page.on('request', (r) => r.url().includes('/api/user/register') && registers.push(r.url()));
  await page.goto('/home?tgId=12&visitorId=visitor-e2e-0002');
  const user = await waitForVisitor(page);
  expect(user.userInfo).toMatchObject({ visitorId: 'visitor-e2e-0002', branchId: 12 });
  expect(user.password.length).toBeGreaterThanOrEqual(12);
  await page.reload();
  await page.waitForLoadState('networkidle');
  expect(registers).toHaveLength(1);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'sid')).toMatchObject({ httpOnly: true });
  const mark = cookies.find((c) => c.name.startsWith('ym_mark_12_'));
  expect(mark?.expires).toBeGreaterThan(Date.now() / 1000 + 99 * 86400);
});

test('unknown paths go to / and /home.html to /home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/index$/);
  await page.goto('/home.html');
  await expect(page).toHaveURL(/\/home$/);
});
