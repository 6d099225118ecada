import type { APIRequestContext, Page } from '@playwright/test';
import { apiData, expect, logIn, shot, test } from './fixtures.ts';

// Search's console side: an operator gives a book an alias and readers find the book by it; the hot-words screen
// shows what readers searched and what found nothing, and turns them into hot words and aliases.

interface BookRow {
  id: number;
  title: string;
}
interface Book extends BookRow {
  version: string;
  aliases: string[];
}
interface SearchTerm {
  keyword: string;
  searches: number;
  misses: number;
}

/** The readers' search (POST /api/book/search), as the reader app calls it: the ids of page 1. */
async function readerSearch(request: APIRequestContext, content: string) {
  const res = await request.post(`/api/book/search?content=${encodeURIComponent(content)}`);
  const body = (await res.json()) as { result: boolean; data: { bookId: number }[] };
  expect(body.result).toBe(true);
  return body.data.map((b) => b.bookId);
}

/** Characters none of the demo titles use together: each run's alias is its own. */
function unique(prefix: string) {
  const chars = '琥珀琉璃翡翠玛瑙珊瑚砗磲';
  const n = Date.now();
  return `${prefix}${chars[n % 12]}${chars[Math.floor(n / 12) % 12]}${chars[Math.floor(n / 144) % 12]}`;
}

async function bookAt(page: Page, index: number) {
  const { list } = await apiData<{ list: BookRow[] }>(page, '/api/admin/books?page=1&size=30');
  const row = list[index];
  if (!row) throw new Error(`no book at ${index}`);
  return row;
}

test('an alias typed on the book edit screen, saved past a conflict, finds the book in the readers’ search', async ({
  page,
  operators,
}) => {
  await logIn(page, operators.owner);
  const book = await bookAt(page, 12);
  const alias = unique('星海');
  expect(await readerSearch(page.request, alias)).not.toContain(book.id);

  await page.goto(`/admin/books/${book.id}`);
  await expect(page.getByLabel('书名')).toHaveValue(book.title);
  const aliases = page.getByLabel('别名');
  await aliases.fill(alias);
  await aliases.press('Enter');
  // Someone else saves the book meanwhile: the save is refused (409), the typed alias stays beside the other save's;
  // the operator takes the saved version (the form reloads, the alias gone).
  const before = await apiData<Book>(page, `/api/admin/books/${book.id}`);
  const other = await page.evaluate(
    async ({ id, version }) =>
      (
        await fetch(`/api/admin/books/${id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ version, aliases: ['别人加的别名'] }),
        })
      ).status,
    { id: book.id, version: before.version },
  );
  expect(other).toBe(200);
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('内容已被他人修改，请刷新后再试')).toBeVisible();
  const field = page.locator('.ant-form-item').filter({ has: aliases });
  await expect(field.locator('.ant-select-selection-item')).toHaveText([alias]);
  const conflict = page.getByTestId('edit-conflict');
  await expect(conflict.locator('tr', { hasText: '别名' })).toContainText('别人加的别名');
  await conflict.getByRole('button', { name: '放弃我的修改，载入已保存的版本' }).click();
  await expect(conflict).toHaveCount(0);
  await expect(field.locator('.ant-select-selection-item')).toHaveText(['别人加的别名']);

  // Again on the reloaded book: a blank and a repeat are dropped, an alias over 50 characters is refused.
  await aliases.fill('长'.repeat(51));
  await aliases.press('Enter');
  await expect(field.getByText('别名最长 50 个字')).toBeVisible();
  await field
    .locator('.ant-select-selection-item')
    .last()
    .locator('.ant-select-selection-item-remove')
    .click();
  await expect(field.getByText('别名最长 50 个字')).toHaveCount(0);
  for (const typed of [alias, `  ${alias} `]) {
    await aliases.fill(typed);
    await aliases.press('Enter');
  }
  await expect(field.locator('.ant-select-selection-item')).toHaveText(['别人加的别名', alias]);
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('已保存', { exact: true })).toBeVisible();
  await shot(page, 'book-edit-aliases');
  expect((await apiData<Book>(page, `/api/admin/books/${book.id}`)).aliases).toEqual(['别人加的别名', alias]);

  // A reader finds it at once, by the alias and by its traditional form.
  expect(await readerSearch(page.request, alias)).toContain(book.id);
  expect(await readerSearch(page.request, '別人加的別名')).toContain(book.id);
  expect(await readerSearch(page.request, 'brjdbm')).toContain(book.id);
});

test('the hot-words screen lists top searches and searches that found nothing, and acts on them', async ({
  page,
  operators,
}) => {
  await logIn(page, operators.owner);
  // A book whose title is searched as it is written (Chinese characters only) and is not a hot word yet.
  const hot = await apiData<string[]>(page, '/api/admin/home/hot-words');
  const { list } = await apiData<{ list: BookRow[] }>(page, '/api/admin/books?page=1&size=30');
  const found = list.find((b) => /^[\u4e00-\u9fff]+$/.test(b.title) && !hot.includes(b.title));
  if (!found) throw new Error('no book with a plain title');
  const target = list.filter((b) => b.id !== found.id)[15];
  if (!target) throw new Error('not enough books');
  // Readers search: a title three times, and a word no book has twice (counted as it is folded: lower case).
  const missed = `${unique('无此书')}zq`;
  for (let i = 0; i < 3; i++) expect(await readerSearch(page.request, found.title)).toContain(found.id);
  for (let i = 0; i < 2; i++)
    expect(await readerSearch(page.request, `${missed.slice(0, -2)}ZQ`)).toEqual([]);

  // The counts reach the database within half a minute (search-counts job).
  const terms = () =>
    apiData<{ searched: SearchTerm[]; missed: SearchTerm[] }>(page, '/api/admin/home/search-terms?days=1');
  await expect
    .poll(async () => (await terms()).missed.find((t) => t.keyword === missed), { timeout: 45_000 })
    .toEqual({ keyword: missed, searches: 2, misses: 2 });
  const searched = (await terms()).searched.find((t) => t.keyword === found.title);
  expect(searched?.searches).toBeGreaterThanOrEqual(3);

  await page.goto('/admin/home?tab=hot-words');
  const top = page.getByTestId('searched-terms');
  const misses = page.getByTestId('missed-terms');
  await expect(page.getByText('读者的搜索')).toBeVisible();
  await page.getByText('今天', { exact: true }).click();
  const topRow = top.locator('tr.ant-table-row').filter({ hasText: found.title });
  await expect(topRow).toBeVisible();
  const missRow = misses.locator('tr.ant-table-row').filter({ hasText: missed });
  await expect(missRow).toContainText('2');
  await page.getByText('近 30 天', { exact: true }).click();
  await expect(missRow).toBeVisible();
  await shot(page, 'home-search-terms');

  // A top search becomes a hot word: added to the list being edited, saved with it.
  const hotRows = page.locator('.ant-pro-table tr.ant-table-row');
  const count = await hotRows.count();
  await topRow.getByRole('button', { name: '加为热词' }).click();
  await expect(hotRows).toHaveCount(count + 1);
  await expect(hotRows.last().locator('input')).toHaveValue(found.title);
  await expect(topRow.getByText('已是热词')).toBeVisible();
  await expect(page.getByText('有未保存的修改')).toBeVisible();
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('已保存', { exact: true })).toBeVisible();
  expect(await apiData<string[]>(page, '/api/admin/home/hot-words')).toContain(found.title);

  // A search that found nothing becomes an alias of the book picked for it; readers then find the book by it.
  await missRow.getByRole('button', { name: '加为别名' }).click();
  const dialog = page.getByRole('dialog', { name: '加为书籍的别名' });
  await expect(dialog.getByLabel('别名')).toHaveValue(missed);
  await dialog.getByRole('combobox').fill(target.title);
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: `ID ${target.id}）` })
    .click();
  await expect(dialog.getByTestId('alias-book')).toContainText(`《${target.title}》`);
  await shot(page, 'home-alias-dialog');
  await dialog.getByRole('button', { name: '加为别名' }).click();
  await expect(page.getByText(`已加为《${target.title}》的别名`)).toBeVisible();
  await expect(dialog).toBeHidden();
  expect((await apiData<Book>(page, `/api/admin/books/${target.id}`)).aliases).toContain(missed);
  expect(await readerSearch(page.request, missed)).toContain(target.id);
});

test('operators who do not edit the catalogue see the searches without the actions', async ({
  page,
  operators,
}) => {
  await logIn(page, operators.support);
  await page.goto('/admin/home?tab=hot-words');
  await expect(page.getByText('读者的搜索')).toBeVisible();
  await expect(page.getByTestId('searched-terms')).toBeVisible();
  await expect(page.getByRole('button', { name: '加为热词' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '加为别名' })).toHaveCount(0);
});
