import type { Page } from '@playwright/test';
import { expect, logIn, shot, test } from './fixtures.ts';
import { phoneReader, sandboxPaidOrder, screenshotPhone } from './readers-kit.ts';
import { port } from './server-env.ts';

// An operator's day, in one walk through the console as an owner: find a reader by the account name they tell
// support, grant them coins with a reason, refund their sandbox order taking its coins back (the orders list then
// shows and filters it as 已退款), raise a pack's bonus and see a reader's recharge centre on a phone change, turn
// the first-recharge offer on and see a new reader get it, handle a complaint from its page link (the reported page
// opens in this desktop browser), and open the dashboard. A screenshot of each step (e2e/screenshots/walk-*.png).

const PACK_ID = 3; // the demo's 5000阅币 pack (¥50, 送800阅币): packs.spec.ts edits the 10000阅币 one, others pay the first
const PACK = '5000阅币';
const HOUR = 3_600_000;
/** An instant as the console types it: China time, 'YYYY-MM-DD HH:mm'. */
const chinaText = (at: number) => new Date(at + 8 * HOUR).toISOString().slice(0, 16).replace('T', ' ');
const yuan = (cents: number) => `¥${(cents / 100).toFixed(2)}`;

/** The page at the top of the reader's screen (1-based), as the reader app computes it. */
const pageAtTop = (page: Page) =>
  page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('.reader-pages [data-page]'));
    return rows.findLastIndex((r) => r.getBoundingClientRect().top <= 1) + 1;
  });

async function editPack(page: Page, fields: Record<string, string>) {
  await page.getByRole('button', { name: `编辑 ${PACK}` }).click();
  const dialog = page.getByRole('dialog', { name: /编辑套餐/ });
  await expect(dialog).toBeVisible();
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label).fill(value);
  return dialog;
}

test('an operator’s day: a reader found, coins granted, an order refunded, a pack and the first-recharge offer changed, a complaint handled, the dashboard', async ({
  page,
  operators,
  browser,
  playwright,
}) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  // The reader who calls support: paid a coin pack through the sandbox and tells their account name.
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const paid = await sandboxPaidOrder(reader);
  const { account } = (await (await reader.get('/api/user/info')).json()).data as { account: string };

  await logIn(page, operators.owner);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');

  // 1. The reader, by account name.
  await menu.getByText('读者', { exact: true }).click();
  await page.getByLabel('查找读者').fill(account);
  await page.getByRole('button', { name: /查\s*找/ }).click();
  await expect(page).toHaveURL(/\/admin\/readers\/\d+$/);
  const readerPath = new URL(page.url()).pathname.replace(/^\/admin/, '');
  await expect(page.getByText(`读者 ${account}`)).toBeVisible();
  await expect(page.getByTestId('reader-balance')).toHaveText(String(paid.coins));
  await shot(page, 'walk-1-reader');

  // 2. 100 coins granted, with the reason.
  await page.getByRole('button', { name: /调整阅币/ }).click();
  const grant = page.getByRole('dialog', { name: `调整读者 ${account} 的阅币` });
  await grant.getByLabel('阅币').fill('100');
  await grant.getByLabel('原因').fill('充值未到账，核对订单后补发');
  await grant.getByRole('button', { name: /确认调整/ }).click();
  await expect(grant).toHaveCount(0);
  await expect(page.getByTestId('reader-balance')).toHaveText(String(paid.coins + 100));
  await page.getByRole('tab', { name: '阅币流水' }).click();
  await expect(page.getByRole('tabpanel', { name: '阅币流水' })).toContainText('充值未到账，核对订单后补发');
  await shot(page, 'walk-2-grant');

  // 3. Their sandbox order, found by their account in the orders list, refunded taking its coins back.
  await menu.getByText('订单', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await page.getByPlaceholder('账号 / 手机号 / 用户 ID / 访客 ID').fill(account);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(paid.orderNo);
  await expect(rows.first()).toContainText('已支付');
  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${paid.orderNo}$`));
  await page.getByRole('button', { name: /^退\s*款$/ }).click();
  const refund = page.getByRole('dialog');
  await expect(refund.getByLabel('退款金额（元）')).toHaveValue((paid.amount / 100).toFixed(2));
  await refund.getByLabel('原因').fill('读者申请退款');
  await refund.getByText('收回阅币', { exact: true }).click();
  await shot(page, 'walk-3-refund-form');
  await refund.getByRole('button', { name: '确认退款' }).click();
  await expect(page.locator('.ant-message')).toContainText(`已退款 ${yuan(paid.amount)}`);
  await expect(page.getByTestId('order-refunds')).toContainText(`收回 ${paid.coins} 阅币`);
  await shot(page, 'walk-3-refund-story');

  // The orders list shows it refunded, and its 已退款 filter finds it.
  await menu.getByText('订单', { exact: true }).click();
  await page.getByPlaceholder('账号 / 手机号 / 用户 ID / 访客 ID').fill(account);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('已退款');
  await expect(rows.first()).toContainText(`退 ${yuan(paid.amount)}`);
  const stateFilter = page.locator('.ant-pro-query-filter .ant-form-item', { hasText: '状态' });
  await stateFilter.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('部分退款', { exact: true }).click();
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.locator('.ant-table-tbody')).toContainText('暂无数据');
  await stateFilter.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('已退款', { exact: true }).click();
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(paid.orderNo);
  await shot(page, 'walk-3-orders-refunded');
  // The coins the order brought went back; the granted ones stay.
  await page.goto(`/admin${readerPath}`);
  await expect(page.getByTestId('reader-balance')).toHaveText('100');

  // 4. The pack's bonus raised (and the offer ended): a reader's recharge centre, on a phone, follows.
  await menu.getByText('套餐与支付', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/packs$/);
  const phone = await phoneReader(browser);
  const card = phone.page.getByTestId(`pack-${PACK_ID}`);
  await expect(card).toContainText('送800阅币');
  const edit = await editPack(page, {
    赠送阅币: '1000',
    说明: '充50元，加赠1000阅币',
    '首充加赠阅币（0 为不加赠）': '0',
  });
  await edit.getByLabel('开始（北京时间）').clear();
  await edit.getByLabel('结束（北京时间）').clear();
  await shot(page, 'walk-4-pack-edit');
  await edit.getByRole('button', { name: /保\s*存/ }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.getByText(/已保存，新订单生效/)).toBeVisible();
  await phone.page.reload();
  await expect(card).toContainText('送1000阅币');
  await expect(card.locator('.pack-first-pay')).toHaveCount(0);
  await screenshotPhone(phone.page, 'walk-4-recharge-centre-phone');
  await phone.context.close();

  // 5. The first-recharge offer on (150 coins, from an hour ago to tomorrow, China time): a new reader sees it, pays
  // the pack through the sandbox cashier and gets the coins, the bonus and the offer.
  const now = Date.now();
  const offer = await editPack(page, {
    '首充加赠阅币（0 为不加赠）': '150',
    '开始（北京时间）': chinaText(now - HOUR),
    '结束（北京时间）': chinaText(now + 24 * HOUR),
  });
  await offer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(offer).toHaveCount(0);
  const packRow = page.getByRole('row', { name: new RegExp(PACK) });
  await expect(packRow).toContainText('加赠 150 阅币');
  await expect(packRow).toContainText('进行中');
  await shot(page, 'walk-5-offer-on');
  const newcomer = await phoneReader(browser);
  const offered = newcomer.page.getByTestId(`pack-${PACK_ID}`);
  await expect(offered).toContainText('首充加赠 150 阅币');
  await screenshotPhone(newcomer.page, 'walk-5-offer-phone');
  await offered.click();
  await newcomer.page.getByRole('button', { name: '立即充值' }).click();
  await newcomer.page.getByTestId('channel-wechat_h5').click();
  await newcomer.page.getByRole('dialog').getByRole('button', { name: '确认支付' }).click();
  await newcomer.page.getByRole('button', { name: '确认支付' }).click();
  await expect
    .poll(
      async () => (await (await newcomer.page.request.get('/api/user/info')).json()).data?.avaliableAmount,
      { timeout: 30_000 },
    )
    .toBe(5000 + 1000 + 150);
  await newcomer.context.close();

  // 6. A complaint about a page (chapter 2 of book 1, page 3), handled from its page link: the reported page opens
  // in this desktop browser, at that page (not the reader app's QR-code page for PC browsers).
  const said = `第3页有盗版水印 ${Date.now()}`;
  const reported = await reader.post('/api/support/report', {
    form: { reason: '侵权盗版', content: said, bookId: 1, chapterNumber: 2, pageNumber: 3 },
  });
  expect((await reported.json()).result).toBe(true);
  await reader.dispose();
  await menu.getByText('投诉', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/complaints$/);
  const complaint = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: said });
  await expect(complaint).toContainText('第2话 第3页');
  await complaint.getByRole('button', { name: '处理' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer).toContainText(said);
  const link = drawer.getByTestId('complaint-page-link');
  await expect(link).toHaveAttribute('href', '/book/read/1/2?page=3&from=console');
  const [opened] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(opened.locator('.reader-page-img').first()).toBeVisible({ timeout: 60_000 });
  await expect(opened).toHaveURL(/\/book\/read\/1\/2\?page=3&from=console$/);
  await expect(opened.locator('.reader-pages [data-page]').nth(2)).toBeAttached({ timeout: 60_000 });
  await expect.poll(() => pageAtTop(opened)).toBe(3);
  // The reported page itself, drawn (not its placeholder).
  const third = opened.locator('.reader-pages [data-page="2"]');
  await expect(third.getByTestId('page-wait')).toHaveCount(0, { timeout: 30_000 });
  await expect(third.locator('.reader-page-img').first()).toBeVisible();
  await opened.waitForTimeout(300);
  await opened.screenshot({
    path: new URL('./screenshots/walk-6-complaint-page.png', import.meta.url).pathname,
  });
  await opened.close();
  await drawer.getByRole('button', { name: '接手处理' }).click();
  await expect(drawer.getByTestId('complaint-handler')).toHaveText(operators.owner.name);
  await drawer.getByLabel('备注').fill('已核实第3页，转编辑处理');
  await drawer.getByRole('button', { name: '添加备注' }).click();
  await expect(drawer.getByTestId('complaint-note')).toContainText('已核实第3页，转编辑处理');
  await drawer.getByRole('button', { name: '标为已处理' }).click();
  await expect(page.getByText('已标为已处理')).toBeVisible();
  await expect(drawer).toContainText('已处理');
  await shot(page, 'walk-6-complaint-done');
  await page.locator('.ant-drawer-close').click();

  // 7. The dashboard: today's figures count the day's payments.
  await menu.getByText('数据概览', { exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByTestId('dashboard-summary').locator('tr.ant-table-row')).toHaveCount(3, {
    timeout: 60_000,
  });
  await expect(page.getByTestId('dashboard-today')).toContainText('北京时间');
  await expect(page.getByTestId('dashboard-trend').locator('canvas').first()).toBeVisible();
  await shot(page, 'walk-7-dashboard');
  expect(errors).toEqual([]);
});
