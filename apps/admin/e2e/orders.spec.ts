import type { APIRequestContext, Page } from '@playwright/test';
import { expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// The console's order screens against real orders: a reader pays through the sandbox gateway as an app shell
// does (pay apply, the cashier's confirm, the sandbox's own signed notification a moment later), then the owner
// finds the order, reads its story and sees the money in revenue per branch.

const BRANCH = 9001;
const BRANCH_NAME = '抖音投放';

interface Recharge {
  payConfigs: {
    id: number;
    type: 'coin' | 'vip';
    amountLevel: number;
    itemCount: number;
    presentCount: number;
  }[];
  subTypes: { subTypeCode: string; discount: number }[];
}

const dataOf = async <T>(res: { json(): Promise<unknown> }) => ((await res.json()) as { data: T }).data;

/** A new visitor (its session kept by this request context) applies for a pack; answers the order number. */
async function apply(reader: APIRequestContext, type: 'coin' | 'vip', channel: string) {
  const recharge = await dataOf<Recharge>(await reader.get('/api/user/recharge?appType=wap_browser'));
  const pack = recharge.payConfigs.find((c) => c.type === type);
  const sub = recharge.subTypes.find((s) => s.subTypeCode === channel);
  if (!pack || !sub) throw new Error(`the demo shop has a ${type} pack and the channel ${channel}`);
  const amount = Math.floor((pack.amountLevel * Math.round(sub.discount * 10) + 50) / 100);
  const query = new URLSearchParams({
    rechargerAmount: String(amount),
    payPurposeId: String(pack.id),
    payChannel: channel,
    payPurpose: type,
    appType: 'wap_browser',
    branchId: String(BRANCH),
    vueReturnUrl: '/user',
  });
  const applied = await reader.get(`/h5/pay/apply?${query}`, { maxRedirects: 0 });
  expect(applied.status(), await applied.text()).toBe(302);
  const cashier = new URL(applied.headers().location ?? '');
  const page = await (await reader.get(cashier.pathname)).text();
  const orderNo = /data-order-no>([A-Z0-9]+)</.exec(page)?.[1];
  if (!orderNo) throw new Error('the cashier shows no order number');
  return { orderNo, amount, pack, cashier: cashier.pathname };
}

/** Pays a coin pack through the sandbox (支付宝 channel, no discount) and waits for the credit. */
async function paidOrder(reader: APIRequestContext) {
  expect((await reader.post('/api/user/register')).ok()).toBe(true);
  const order = await apply(reader, 'coin', 'alipay_wap');
  const confirmed = await reader.post(`${order.cashier}/confirm`, { maxRedirects: 0 });
  expect(confirmed.status()).toBe(302);
  await expect
    .poll(
      async () =>
        (await dataOf<{ orderNo: string } | null>(await reader.get('/api/pay/last_paid_order')))?.orderNo,
      { timeout: 30_000 },
    )
    .toBe(order.orderNo);
  return order;
}

/** Names the test's branch, as an owner would in 渠道客服 (a console write carries our Origin). */
async function nameBranch(page: Page) {
  const res = await page.request.post(`/api/admin/branches/${BRANCH}`, {
    headers: { origin: `http://127.0.0.1:${port}` },
    data: {
      name: BRANCH_NAME,
      appDownloadUrl: '',
      appDownloadHome: '',
      customerServiceEmail: '',
      customerServiceQq: '',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

test('an owner finds a paid order, reads its whole story, and sees it in revenue', async ({
  page,
  playwright,
  operators,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });

  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const paid = await paidOrder(reader);
  // The same reader's VIP order left unpaid: the list shows both states.
  const unpaid = await apply(reader, 'vip', 'wechat_h5');
  await reader.dispose();

  await logIn(page, operators.owner);
  await nameBranch(page);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await menu.getByText('订单').click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  // Newest first: the unpaid VIP order, then the paid one.
  await expect(rows.first()).toContainText(unpaid.orderNo);
  await expect(rows.nth(1)).toContainText(paid.orderNo);
  await expect(rows.nth(1)).toContainText('已支付');
  await expect(rows.nth(1)).toContainText(`¥${(paid.amount / 100).toFixed(2)}`);
  await expect(rows.first()).toContainText('待支付');
  // The date filter reads at 1440 px: each of its two dates in a box wide enough for a whole date.
  const dates = page.locator('.ant-pro-query-filter .ant-picker-range input');
  await expect(dates).toHaveCount(2);
  for (const input of await dates.all()) {
    expect((await input.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(110);
  }
  await shot(page, 'orders');

  // The filters: the order number finds one; a state narrows the list.
  await page.getByPlaceholder('完整的商户订单号').fill(paid.orderNo);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(paid.orderNo);
  await shot(page, 'orders-filtered');

  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${paid.orderNo}$`));
  const events = page.getByTestId('order-events');
  await expect(events.locator('.ant-timeline-item')).toHaveCount(2);
  await expect(events).toContainText('下单');
  await expect(events).toContainText('网关通知');
  await expect(page.getByTestId('order-facts')).toContainText(`${BRANCH}`);
  // The sandbox keeps no gateway message with its notification (Alipay's and WeChat Pay's are kept: the server test).
  await expect(events.getByText('网关报文')).toHaveCount(0);
  // The credit in the ledger: the coins and the bonus, each from a system account to the reader.
  const ledger = page.getByTestId('order-ledger');
  await expect(ledger).toContainText(`order:${paid.orderNo}:coins`);
  await expect(ledger).toContainText(`+${paid.pack.itemCount}`);
  if (paid.pack.presentCount > 0) await expect(ledger).toContainText(`order:${paid.orderNo}:bonus`);
  // The sandbox refunds (its cashier records it): refunds.spec.ts refunds one.
  const refund = page.getByRole('button', { name: /^退\s*款$/ });
  await expect(refund).toBeEnabled();
  await shot(page, 'order-story');

  // The same story as an Alipay order's would be: the story's answer changed in the browser to carry Alipay's
  // notification, to see a gateway's message shown.
  const alipayNotification = {
    notify_type: 'trade_status_sync',
    out_trade_no: paid.orderNo,
    trade_no: '2025010122001400000000000001',
    trade_status: 'TRADE_SUCCESS',
    total_amount: (paid.amount / 100).toFixed(2),
    buyer_logon_id: '138****0000',
    gmt_payment: '2025-01-01 12:00:00',
  };
  await page.route(`**/api/admin/orders/${paid.orderNo}`, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as {
      data: { refund: { refusal: string | null }; events: { source: string; payload: unknown }[] };
    };
    body.data.refund.refusal = null;
    for (const e of body.data.events) if (e.source === 'notify') e.payload = alipayNotification;
    await route.fulfill({ response: res, json: body });
  });
  await page.getByRole('button', { name: /刷\s*新/ }).click();
  await expect(refund).toBeEnabled();
  await events.getByText('网关报文').click();
  await expect(events.locator('pre.json-block')).toContainText(`"out_trade_no": "${paid.orderNo}"`);
  await shot(page, 'order-story-payload');
  await page.unroute(`**/api/admin/orders/${paid.orderNo}`);

  // Revenue: this week, the test's branch by its name, with what was paid; the total row.
  await menu.getByText('营收').click();
  await expect(page).toHaveURL(/\/admin\/revenue$/);
  const branchRow = page.getByTestId('revenue-table').locator('tr.ant-table-row', { hasText: BRANCH_NAME });
  await expect(branchRow).toContainText(`渠道 ID ${BRANCH}`);
  await expect(branchRow).toContainText(`¥${(paid.amount / 100).toFixed(2)}`);
  // The total row sums every branch's week: other specs on this server pay orders too, so it holds at least this
  // order's amount.
  await expect(page.getByTestId('revenue-total')).toContainText('合计');
  const total = Number(/¥([\d.]+)/.exec((await page.getByTestId('revenue-total').textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThanOrEqual(paid.amount / 100);
  await shot(page, 'revenue');
  expect(errors).toEqual([]);
});

test('customer service reads orders but not revenue, and has no refund button', async ({
  page,
  playwright,
  operators,
}) => {
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  expect((await reader.post('/api/user/register')).ok()).toBe(true);
  const { orderNo } = await apply(reader, 'coin', 'alipay_wap');
  await reader.dispose();

  await logIn(page, operators.support);
  const menu = page.locator('.ant-pro-sider-menu, .ant-layout-sider .ant-menu');
  await expect(menu.getByText('订单')).toBeVisible();
  await expect(menu.getByText('营收')).toHaveCount(0);
  await menu.getByText('订单').click();
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  // Support does not refund, so it sees the order number in part (YM and the day, the last four), never whole.
  const inPart = `${orderNo.slice(0, 10)}${'*'.repeat(orderNo.length - 14)}${orderNo.slice(-4)}`;
  await expect(rows.first()).toContainText(inPart);
  await expect(page.getByText(orderNo)).toHaveCount(0);
  await rows.first().click();
  await expect(page.getByTestId('order-events')).toContainText('下单');
  await expect(page.getByText(orderNo)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /退\s*款/ })).toHaveCount(0);
  await page.goto('/admin/revenue');
  await expect(page.getByText('当前角色无权进行此操作')).toBeVisible();
});
