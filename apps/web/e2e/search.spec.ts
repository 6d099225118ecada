import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { bookDetail } from './api.ts';
import { expect, test } from './fixtures.ts';
import { openAsVisitor, shot } from './support.ts';

const field = (page: Page) => page.getByPlaceholder('书名或作者');
const submit = (page: Page) => page.getByRole('button', { name: '搜索', exact: true });

async function searchFor(page: Page, word: string) {
  await field(page).fill(word);
  await submit(page).click();
  await expect(page).toHaveURL(new RegExp(`content=${encodeURIComponent(word)}`));
}

test.beforeEach(async ({ page }) => {
  await openAsVisitor(page, '/search');
});

test('an empty or over-long keyword is refused with the spec messages', async ({ page }) => {
  const searches: string[] = [];
  page.on('request', (r) => r.url().includes('/api/book/search') && searches.push(r.url()));
  await submit(page).click();
  await expect(page.getByText('请输入搜索关键字')).toBeVisible();
  // The alert is modal: while it shows, its mask takes the taps meant for the screen behind it.
  await expect(page.locator('.adm-toast-mask')).toHaveCSS('pointer-events', 'auto');
  await shot(page, 'search-alert');
  await field(page).fill('   ');
  await submit(page).click();
  await expect(page.getByText('请输入搜索关键字')).toBeVisible();
  await field(page).fill('一二三四五六七八九十一二三四五六七八九十一');
  await submit(page).click();
  await expect(page.getByText('搜索关键字最长不超过20个字')).toBeVisible();
  // The alert hides after about 1.5 s.
  await expect(page.getByText('搜索关键字最长不超过20个字')).toBeHidden({ timeout: 4000 });
  expect(searches).toHaveLength(0);
  await expect(page).toHaveURL(/\/search$/);
});

test('hot words are shown and tapping one searches for it', async ({ page }) => {
  const hot = page.getByRole('region', { name: '热门搜索' });
  const first = hot.getByRole('button').first();
  await expect(first).toBeVisible();
  await expect(page.getByRole('region', { name: '搜索历史' }).getByText('还没有搜索过')).toBeVisible();
  await shot(page, 'search');
  const word = (await first.textContent()) ?? '';
  await first.click();
  await expect(field(page)).toHaveValue(word);
  await expect(page.getByRole('region', { name: '搜索结果' }).locator('a.book-row').first()).toBeVisible();
});

test('two characters of a title find the book; a word with no match shows the empty state', async ({
  page,
}) => {
  const { title } = (await bookDetail(page.request, 1)).book;
  await searchFor(page, title.slice(0, 2));
  const results = page.getByRole('region', { name: '搜索结果' });
  await expect(results.getByRole('link', { name: new RegExp(title) }).first()).toBeVisible();
  await expect(page.locator('.book-row .cover img').first()).toBeVisible();
  await shot(page, 'search-results');
  await results
    .getByRole('link', { name: new RegExp(title) })
    .first()
    .click();
  await expect(page).toHaveURL(/\/book\/\d+$/);

  await page.goto('/search');
  await searchFor(page, '不存在的书名zzz');
  await expect(page.getByText('暂时没有记录')).toBeVisible();
});

test('history keeps the 10 newest words, moves a repeated word to the front, and a tap searches', async ({
  page,
}) => {
  const words = Array.from({ length: 11 }, (_, i) => `词${i + 1}`);
  for (const w of words) await searchFor(page, w);
  await searchFor(page, '词5');

  const stored = await page.evaluate(() => localStorage.getItem('ym-search-history'));
  expect(stored).toBe('词5,词11,词10,词9,词8,词7,词6,词4,词3,词2');

  // Emptying the field returns to the not-searched state.
  await field(page).fill('');
  const history = page.getByRole('region', { name: '搜索历史' });
  await expect(history.getByRole('button', { name: /^词/ })).toHaveText([
    '词5',
    '词11',
    '词10',
    '词9',
    '词8',
    '词7',
    '词6',
    '词4',
    '词3',
    '词2',
  ]);

  // It survives a reload (local storage).
  await page.reload();
  await expect(
    page.getByRole('region', { name: '搜索历史' }).getByRole('button', { name: /^词/ }),
  ).toHaveCount(10);
  const searched = page.waitForRequest((r) => r.url().includes('/api/book/search?content=%E8%AF%8D9'));
  await page
    .getByRole('region', { name: '搜索历史' })
    .getByRole('button', { name: '词9', exact: true })
    .click();
  await searched;
  await expect(field(page)).toHaveValue('词9');
  await expect(page.getByText('暂时没有记录')).toBeVisible();

  await field(page).fill('');
  await page.getByRole('button', { name: '清空' }).click();
  await expect(page.getByText('还没有搜索过')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('ym-search-history'))).toBeNull();
});

/**
 * An operator (made as in production, `npm run operator` beside the suite's server) names a demo book 斗罗大陆 with
 * an alias, through the console's calls: the reader then finds it by its initials as they type.
 */
async function nameBook(page: Page, bookId: number, title: string, aliases: string[]) {
  const port = Number(process.env.E2E_PORT ?? 18900);
  const root = new URL('../../..', import.meta.url).pathname;
  const name = `searcher${Date.now()}`;
  const { stdout, stderr } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'operator', '--', 'add', name, '--role', 'editor'],
    { cwd: root, env: { ...process.env, DATA_DIR: `.tmp/e2e-data-${port}` }, timeout: 120_000 },
  );
  const password = /password: (\S+)/.exec(`${stdout}\n${stderr}`)?.[1] ?? '';
  const api = page.context().request;
  const origin = { origin: `http://127.0.0.1:${port}` };
  expect((await api.post('/api/admin/login', { data: { name, password }, headers: origin })).ok()).toBe(true);
  const book = (await (await api.get(`/api/admin/books/${bookId}`)).json()).data;
  const saved = await api.post(`/api/admin/books/${bookId}`, {
    data: { version: book.version, title, aliases },
    headers: origin,
  });
  expect((await saved.json()).result).toBe(true);
}

test('typing initials suggests the book with its initials marked; traditional text finds it; a tap opens it', async ({
  page,
}) => {
  await nameBook(page, 2, '斗罗大陆', ['斗罗']);
  await field(page).pressSequentially('dldl', { delay: 60 });
  const suggestions = page.getByRole('list', { name: '搜索提示' });
  const first = suggestions.getByRole('link', { name: /斗罗大陆/ });
  await expect(first).toBeVisible();
  await expect(first.locator('mark')).toHaveText(['斗罗大陆', 'd', 'l', 'd', 'l']);
  await shot(page, 'search-suggest-initials');

  // Pasted traditional text: the question for it is held at the network until the screen has been checked, so the
  // moments between the paste and its answer last as long as the test needs. The previous text's titles (dldl's)
  // must not show meanwhile: neither while typing pauses nor while the new question is on its way.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const isTraditional = (url: URL) =>
    url.pathname === '/api/book/suggest' && url.searchParams.get('content') === '鬥羅大陸';
  await page.route(isTraditional, async (route) => {
    await held;
    await route.continue();
  });
  const asked = page.waitForRequest((r) => isTraditional(new URL(r.url())));
  await field(page).fill('鬥羅大陸');
  await expect(suggestions).toBeHidden();
  await asked;
  await expect(suggestions).toBeHidden();
  await expect(page.locator('.search-suggestion')).toHaveCount(0);
  release();
  await expect(suggestions.getByRole('link', { name: /斗罗大陆/ })).toBeVisible();
  await expect(field(page)).toHaveValue('鬥羅大陸');
  await shot(page, 'search-suggest-traditional');
  await suggestions
    .getByRole('link', { name: /斗罗大陆/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/book\/2$/);
});
