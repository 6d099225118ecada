import type { Browser } from '@playwright/test';
import { apiData, expect, logIn, shot, test } from './fixtures.ts';
import { port } from './server-env.ts';

// 读者留存 on the dashboard: a reader arriving on a phone through a promotion branch is that branch's new reader
// of the day (no one of it is due back yet: "—"); staff opening the reader app from the console (a desktop browser,
// the console's from=console mark) through another branch is no reader at all.

interface Retention {
  branches: { branchId: number; newReaders: number }[];
}

/** A browser's first visit of the reader app at `path`, until the app has registered its visitor. */
async function firstVisit(browser: Browser, path: string, phone: boolean) {
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    ...(phone
      ? {
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
          userAgent:
            'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
        }
      : { viewport: { width: 1440, height: 900 } }),
  });
  const page = await context.newPage();
  await page.goto(path);
  await page.waitForFunction(() => {
    const raw = localStorage.getItem('ym-user');
    return raw !== null && JSON.parse(raw).state?.userInfo?.userId > 0;
  });
  return context;
}

test('the dashboard counts a reader’s first day per branch, and not staff opening the reader app from the console', async ({
  page,
  operators,
  browser,
}) => {
  // Branches of this run's own: no other spec's visitor comes through them.
  const branch = 90_000 + Math.floor(Math.random() * 4_000) * 2;
  const staffBranch = branch + 1;
  const reader = await firstVisit(browser, `/home?tgId=${branch}`, true);
  const staff = await firstVisit(browser, `/home?tgId=${staffBranch}&from=console`, false);
  await reader.close();
  await staff.close();

  await logIn(page, operators.owner);
  await page.getByTestId('dashboard-window').getByText('当天', { exact: true }).click();
  const section = page.getByTestId('dashboard-retention');
  const row = section.locator('tr.ant-table-row', { hasText: `渠道 ${branch}` });
  await expect(row.locator('td')).toHaveText([`渠道 ${branch}`, '1', '—', '—', '—'], { timeout: 60_000 });
  await expect(section.locator('tr.ant-table-row', { hasText: `渠道 ${staffBranch}` })).toHaveCount(0);
  await expect(section.locator('tr.ant-table-row', { hasText: '合计' })).toHaveCount(1);

  const { branches } = await apiData<{ retention: Retention }>(page, '/api/admin/dashboard?days=1').then(
    (d) => d.retention,
  );
  expect(branches.find((b) => b.branchId === branch)?.newReaders).toBe(1);
  expect(branches.find((b) => b.branchId === staffBranch)).toBeUndefined();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-retention');
});
