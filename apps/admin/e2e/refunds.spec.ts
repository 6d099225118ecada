import { addOperator, apiData, expect, logIn, shot, test } from './fixtures.ts';
import { sandboxPaidOrder } from './readers-kit.ts';
import { port } from './server-env.ts';

// Refunds, completed: a reader buys coins through the sandbox recharge flow (pay apply, the cashier's
// confirm, the sandbox's signed notification), spends nothing, and finance refunds the whole order through the
// sandbox taking the coins back: the reader's balance and the order's story change.

test('finance refunds a sandbox order taking the coins back, and sees the balance and the story change', async ({
  page,
  playwright,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  const reader = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const paid = await sandboxPaidOrder(reader);
  await reader.dispose();

  const finance = await addOperator(`finance-refunds-${Date.now()}`, 'finance');
  await logIn(page, finance);
  const story = await apiData<{ user: { id: number } }>(page, `/api/admin/orders/${paid.orderNo}`);
  await page.goto(`/admin/readers/${story.user.id}`);
  await expect(page.getByTestId('reader-balance')).toHaveText(String(paid.coins));

  await page.goto(`/admin/orders/${paid.orderNo}`);
  const refundButton = page.getByRole('button', { name: /^退\s*款$/ });
  await expect(refundButton).toBeEnabled();
  await refundButton.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('钱原路退回付款人的支付账户');
  await expect(dialog.getByLabel('退款金额（元）')).toHaveValue((paid.amount / 100).toFixed(2));
  await dialog.getByLabel('原因').fill('读者申请退款');
  // The coins choice is required: nothing is preselected.
  await dialog.getByRole('button', { name: '确认退款' }).click();
  await expect(dialog).toContainText('请选择收回或保留阅币');
  await dialog.getByText('收回阅币', { exact: true }).click();
  await shot(page, 'refund-form');
  await dialog.getByRole('button', { name: '确认退款' }).click();
  await expect(page.locator('.ant-message')).toContainText(`已退款 ¥${(paid.amount / 100).toFixed(2)}`);

  // The story: the sandbox's refund, and the coins taken back, in Chinese.
  const events = page.getByTestId('order-events');
  await expect(events).toContainText('退款：阅币与会员');
  await expect(events).toContainText(`收回 ${paid.coins} 阅币`);
  const refunds = page.getByTestId('order-refunds');
  await expect(refunds).toContainText('成功');
  await expect(refunds).toContainText(`收回 ${paid.coins} 阅币`);
  await expect(page.getByTestId('order-ledger')).toContainText('扣回');
  await expect(refundButton).toBeDisabled();
  await shot(page, 'refund-story');

  await page.goto(`/admin/readers/${story.user.id}`);
  await expect(page.getByTestId('reader-balance')).toHaveText('0');
  await shot(page, 'refund-reader');
  expect(errors).toEqual([]);
});
