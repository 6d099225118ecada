import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';
import { expect, logIn, shot, test } from './fixtures.ts';

/** A PNG page of this height (pages are told apart by their heights). */
const png = (height: number) =>
  sharp({ create: { width: 400, height, channels: 3, background: '#4488aa' } })
    .png()
    .toBuffer();

async function cbz(file: string, entries: Record<string, Buffer | string>) {
  const archive = new yazl.ZipFile();
  for (const [name, body] of Object.entries(entries)) archive.addBuffer(Buffer.from(body), name);
  archive.end();
  const chunks: Buffer[] = [];
  for await (const chunk of archive.outputStream) chunks.push(chunk as Buffer);
  await writeFile(file, Buffer.concat(chunks));
}

test('a .cbz uploaded on the imports screen becomes a book the reader app shows', async ({
  page,
  operators,
  browser,
  baseURL,
}) => {
  const work = await mkdtemp(path.join(tmpdir(), 'yueman-admin-import-'));
  try {
    const series = `测试导入${Date.now().toString(36)}`;
    const file = path.join(work, 'vol-1.cbz');
    await cbz(file, {
      'ComicInfo.xml': `<?xml version="1.0" encoding="utf-8"?>
<ComicInfo><Series>${series}</Series><Number>1</Number><Title>初见</Title><Writer>林一</Writer>
<Summary>一段旅程。</Summary><Genre>科幻</Genre></ComicInfo>`,
      '01.png': await png(600),
      '02.png': await png(610),
      '03.png': await png(620),
    });

    await logIn(page, operators.owner);
    await page.goto('/admin/imports');
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('button', { name: '开始导入' }).click();

    const result = page.getByTestId('import-result');
    await expect(result.getByTestId('import-progress')).toContainText('100%', { timeout: 60_000 });
    await expect(result.locator('tr.ant-table-row').first()).toContainText('新增');
    await expect(result.locator('tr.ant-table-row').first()).toContainText('初见');
    const link = result.getByTestId('import-book-link');
    await expect(link).toContainText(series);
    const bookId = Number(/\/admin\/books\/(\d+)$/.exec((await link.getAttribute('href')) ?? '')?.[1]);
    expect(bookId).toBeGreaterThan(0);
    // The recent imports list it too.
    await expect(page.locator('.ant-pro-table').getByText('vol-1.cbz')).toBeVisible();
    await shot(page, 'imports-done');

    // The reader app (a phone: a desktop browser gets its PC page) shows the book with its chapter.
    const phone = await browser.newContext({
      baseURL,
      locale: 'zh-CN',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
    });
    try {
      const reader = await phone.newPage();
      await reader.goto(`/book/${bookId}`);
      await expect(reader.getByText(series).first()).toBeVisible();
      await expect(reader.getByText('初见').first()).toBeVisible();
    } finally {
      await phone.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test('a dropped file that is not an archive is named and refused, instead of nothing happening', async ({
  page,
  operators,
}) => {
  await logIn(page, operators.owner);
  await page.goto('/admin/imports');
  const drop = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['Rar!'], '第一话.rar', { type: 'application/vnd.rar' }));
    return transfer;
  });
  await page.locator('.ant-upload-drag').dispatchEvent('drop', { dataTransfer: drop });
  await expect(page.getByText('第一话.rar 不是 .cbz 或 .zip 压缩包，请改传压缩包')).toBeVisible();
  await shot(page, 'imports-not-an-archive');
});
