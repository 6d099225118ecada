import { apiData, expect, logIn, test } from './fixtures.ts';

interface Section {
  type: string;
  books: { bookId: number; title: string }[];
}

const SECTIONS = '/api/admin/home/sections';

test('a home section reordered by drag and saved keeps the new order', async ({ page, operators }) => {
  await logIn(page, operators.owner);
  const sections = await apiData<Section[]>(page, SECTIONS);
  const section = sections.find((s) => s.books.length >= 3);
  if (!section) throw new Error('no section with 3 books');
  const before = section.books.map((b) => b.bookId);

  await page.goto('/admin/home?tab=sections');
  await page
    .getByRole('tab', { name: new RegExp(`（${section.books.length}）$`) })
    .first()
    .waitFor();
  await page.locator(`[data-node-key="${section.type}"]`).click();
  const pane = page.getByTestId(`section-${section.type}`);
  const rows = pane.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(before.length);

  // Drag the first book's handle below the third.
  const handles = pane.locator('.ant-pro-table-drag-icon');
  const from = await handles.nth(0).boundingBox();
  const to = await handles.nth(2).boundingBox();
  if (!from || !to) throw new Error('no drag handles');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 8, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + 6, { steps: 20 });
  await page.mouse.up();

  const shown = async () =>
    (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')))).map(Number);
  await expect.poll(shown).not.toEqual(before);
  const order = await shown();
  expect(order.toSorted()).toEqual(before.toSorted());
  expect(order[0]).toBe(before[1]);
  await expect(pane.getByText('有未保存的修改')).toBeVisible();

  await pane.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('已保存', { exact: true })).toBeVisible();
  await expect(pane.getByText('有未保存的修改')).toHaveCount(0);

  const again = await apiData<Section[]>(page, SECTIONS);
  expect(again.find((s) => s.type === section.type)?.books.map((b) => b.bookId)).toEqual(order);

  // And after a reload, the console shows the saved order.
  await page.reload();
  await page.locator(`[data-node-key="${section.type}"]`).click();
  await expect.poll(shown).toEqual(order);
});
