// Pictures no comic page or cover is, uploaded through the console: decompression bombs (a few KB that decode to
// hundreds of MB) and absurd shapes are refused from their header, before a pixel is decoded, with the reason; an
// import stops at them and at a chapter of more pages than any has; names keep no invisible characters.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { png, zipBytes } from '../../../test/comic-files.ts';
import { auditedWrites, consoleOperators, uploadForm } from '../../../test/console-kit.ts';
import { bombPng } from '../../../test/image-bombs.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { books, chapters } from '../../db/schema/index.ts';
import { MAX_CHAPTER_PAGES } from '../importer/index.ts';

describeDb('pictures no comic has, refused before they are decoded', () => {
  let t: TestApp;
  let kit: Awaited<ReturnType<typeof consoleOperators>>;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { IMPORT_UPLOAD_MB: '5' } });
    kit = await consoleOperators(t, ['owner', 'editor']);
    const done = await importArchive('fine.zip', await zipBytes({ '1/1.png': await png(300, 400) }), {
      title: '正常的书',
    });
    expect(done.state, done.message).toBe('done');
    bookId = done.bookId;
  }, 240_000); // a new database and an import: minutes on a busy machine
  afterAll(() => t?.close());

  /** Uploads an archive to import and waits until the import has ended. */
  async function importArchive(name: string, bytes: Buffer, fields: Record<string, string> = {}) {
    const res = await kit.upload('editor', '/api/admin/imports', uploadForm('file', name, bytes, fields));
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.import.id;
    for (let i = 0; i < 1200; i++) {
      const seen = (await kit.admin('editor', 'GET', `/api/admin/imports/${id}`)).json().data.import;
      if (seen.state !== 'running' && seen.state !== 'queued') return seen;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`import ${id} still running`);
  }

  const bookRow = async () => (await t.db.select().from(books).where(eq(books.id, bookId)))[0];

  it('refuses a 16383×16383 cover (33 KB, 268 million pixels) and a 1×1,000,000 one, changing nothing', async () => {
    const before = { book: await bookRow(), audit: await auditedWrites(t.db) };
    const cases = [
      [bombPng(16383, 16383), '图片过大：16383×16383（26840 万像素），最多 3200 万像素'],
      [bombPng(1, 1_000_000), '图片比例异常：1×1000000，长边不能超过短边的 10 倍'],
      [bombPng(4000, 300), '图片比例异常：4000×300，长边不能超过短边的 10 倍'],
    ] as const;
    for (const [bytes, msg] of cases) {
      expect(bytes.length).toBeLessThan(64 * 1024);
      const res = await kit.upload(
        'editor',
        `/api/admin/books/${bookId}/cover`,
        uploadForm('image', 'c.png', bytes),
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ result: false, code: 400, msg, data: { field: 'image' } });
    }
    // Three bombs at once: each refused from its header, none decoded.
    const rss = process.memoryUsage().rss;
    const at = await Promise.all(
      [1, 2, 3].map(() =>
        kit.upload('editor', `/api/admin/books/${bookId}/cover`, uploadForm('image', 'c.png', cases[0][0])),
      ),
    );
    expect(at.map((r) => r.statusCode)).toEqual([400, 400, 400]);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
    expect({ book: await bookRow(), audit: await auditedWrites(t.db) }).toEqual(before);
    // A picture of a cover's size and shape is still taken.
    const fine = await kit.upload(
      'editor',
      `/api/admin/books/${bookId}/cover`,
      uploadForm('image', 'c.png', await png(600, 800)),
    );
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('stops an import at a 1×16000 page, naming it, instead of cutting it into 8,000 pages', async () => {
    const done = await importArchive(
      'strip.zip',
      await zipBytes({ '1/1.png': await png(200, 300), '2/1.png': bombPng(1, 16_000) }),
      { title: '细长条' },
    );
    expect(done.state).toBe('failed');
    expect(done.message).toContain('strip.zip › 2/1.png: 图片比例异常：1×16000，长边不能超过短边的 100 倍');
    expect(done.chapters).toEqual([{ number: 1, title: '1', pages: 1, price: 0, outcome: 'added' }]);
    const [book] = await t.db.select().from(books).where(eq(books.title, '细长条'));
    const stored = await t.db
      .select()
      .from(chapters)
      .where(eq(chapters.bookId, book?.id ?? 0));
    expect(stored.map((c) => c.pics.length)).toEqual([1]);
  });

  it('stops an import at a bomb page and at a chapter of more pages than any comic has', async () => {
    const bomb = await importArchive('bomb.zip', await zipBytes({ '1.png': bombPng(16383, 16383) }), {
      title: '炸弹',
    });
    expect(bomb.state).toBe('failed');
    expect(bomb.message).toContain('bomb.zip › 1.png: 图片过大：16383×16383');
    // 21 strips of 10×1000 (each within the shape limit) cut into 50 parts each: 1,050 pages for one chapter.
    const strip = await png(10, 1000);
    const pages = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`${i + 1}.png`, strip]));
    const long = await importArchive('第1话.zip', await zipBytes(pages), { title: '太长' });
    expect(long.state).toBe('failed');
    expect(long.message).toContain(`第1话.zip: 超过 ${MAX_CHAPTER_PAGES} 页`);
    const [book] = await t.db.select().from(books).where(eq(books.title, '太长'));
    expect(await t.db.$count(chapters, eq(chapters.bookId, book?.id ?? 0))).toBe(0);
  }, 120_000);

  it('keeps no invisible characters (U+202E, U+200B, bidi, zero-width) in an upload’s name or the names it holds', async () => {
    const done = await importArchive(
      'evil\u202Egnp\u200B.zip',
      await zipBytes({
        '第1话\u200B 出发/1.png': await png(200, 300),
        '第2话 \u2067归来\u2069\u200D/1.png': await png(200, 300),
      }),
    );
    expect(done.state, done.message).toBe('done');
    expect(done.fileName).toBe('evilgnp.zip');
    expect(done.chapters.map((c: { title: string }) => c.title)).toEqual(['第1话 出发', '第2话 归来']);
    const titles = await t.db
      .select({ title: chapters.title })
      .from(chapters)
      .where(eq(chapters.bookId, done.bookId));
    expect(titles.map((c) => c.title).sort()).toEqual(['第1话 出发', '第2话 归来']);
    // A one-chapter archive names its book by the file: without them too.
    const one = await importArchive('\u202E单话\u200B.zip', await zipBytes({ '1.png': await png(200, 300) }));
    expect(one.state, one.message).toBe('done');
    expect(one.title).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/);
  });
});
