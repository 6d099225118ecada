// The console's import by upload: the archive goes through the same import as `npm run import`, runs in the
// background and reports its progress to whichever server the browser asks; refused input changes nothing.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { png, zipBytes } from '../../../test/comic-files.ts';
import { auditedWrites, consoleOperators, uploadForm } from '../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { describeDb } from '../../../test/test-database.ts';
import { auditLog, books, categories, chapters, importJobs } from '../../db/schema/index.ts';

describeDb('importing by upload in the console', () => {
  let t: TestApp;
  let kit: Awaited<ReturnType<typeof consoleOperators>>;
  let book: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { IMPORT_UPLOAD_MB: '1' }, staticCacheMs: 60_000 });
    kit = await consoleOperators(t, ['owner', 'editor', 'finance', 'support']);
    // One archive whose top-level folders are chapters (no ComicInfo.xml: the title comes from the form).
    book = await zipBytes({
      '第1话 出发/1.png': await png(300, 400),
      '第1话 出发/2.png': await png(300, 410),
      '第2话 归来/1.png': await png(300, 420),
    });
  });
  afterAll(() => t?.close());

  const job = async (id: number) =>
    (await kit.admin('support', 'GET', `/api/admin/imports/${id}`)).json().data.import;
  /** Polls as the console does until the import is no longer running. */
  async function finished(id: number) {
    for (let i = 0; i < 600; i++) {
      const seen = await job(id);
      if (seen.state !== 'running' && seen.state !== 'queued') return seen;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`import ${id} still running`);
  }
  // The uploads folder keeps only its .place (the data directory's id on the queue) once imports are done.
  const uploadsLeft = async () =>
    (await readdir(path.join(t.config.dataDir, 'uploads'))).filter((n) => !n.startsWith('.'));
  const counts = async () => ({
    books: await t.db.$count(books),
    chapters: await t.db.$count(chapters),
    jobs: await t.db.$count(importJobs),
    audit: await auditedWrites(t.db),
  });

  it('imports an uploaded archive, reports progress to the end, and readers find the book', async () => {
    const res = await kit.upload(
      'editor',
      '/api/admin/imports',
      uploadForm('file', 'upload.zip', book, { title: '远方来信', freeChapters: '1', price: '30' }),
    );
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json().data.import;
    expect(started).toMatchObject({ state: 'queued', fileName: 'upload.zip', operatorName: 'editor1' });

    const done = await finished(started.id);
    expect(done).toMatchObject({
      state: 'done',
      pagesDone: 3,
      pagesTotal: 3,
      title: '远方来信',
      message: null,
    });
    expect(done.chapters).toEqual([
      { number: 1, title: '第1话 出发', pages: 2, price: 0, outcome: 'added' },
      { number: 2, title: '第2话 归来', pages: 1, price: 30, outcome: 'added' },
    ]);
    expect(done.finishedAt).not.toBeNull();
    // Readers see it at once on this server (its kept answers dropped), priced as asked.
    const detail = (await t.app.inject({ url: `/api/book/detail/${done.bookId}` })).json().data;
    expect(detail.book.title).toBe('远方来信');
    expect(detail.chapterList.map((c: { price: number }) => c.price)).toEqual([0, 30]);
    // Searchable at once by its initials too: the importer wrote its search keys with it (no job has run here).
    const found = await t.app.inject({ method: 'POST', url: '/api/book/search?content=yflx&page=1' });
    expect(found.json().data.map((b: { bookId: number }) => b.bookId)).toEqual([done.bookId]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'book.import'));
    expect(audit).toMatchObject({ actor: 'editor1', target: `book:${done.bookId}` });
    await expect.poll(uploadsLeft).toEqual([]); // removed just after the row is written
  });

  it('changes nothing when the same archive comes again, and plans without writing on a dry run', async () => {
    const before = await counts();
    const again = await kit.upload(
      'owner',
      '/api/admin/imports',
      uploadForm('file', 'upload.zip', book, { title: '远方来信' }),
    );
    const seen = await finished(again.json().data.import.id);
    expect(seen.state).toBe('done');
    expect(seen.chapters.map((c: { outcome: string }) => c.outcome)).toEqual(['unchanged', 'unchanged']);
    const plan = await kit.upload(
      'owner',
      '/api/admin/imports',
      uploadForm('file', 'new.cbz', book, { title: '另一本', dryRun: 'true' }),
    );
    const planned = await finished(plan.json().data.import.id);
    expect(planned).toMatchObject({ state: 'done', dryRun: true, bookId: null, title: '另一本' });
    expect(planned.chapters.map((c: { outcome: string }) => c.outcome)).toEqual(['planned', 'planned']);
    // A dry run of the book already there is checked against it: its chapters are unchanged, not new.
    const replan = await kit.upload(
      'owner',
      '/api/admin/imports',
      uploadForm('file', 'upload.zip', book, { title: '远方来信', dryRun: 'true' }),
    );
    const checked = await finished(replan.json().data.import.id);
    expect(checked).toMatchObject({ state: 'done', dryRun: true, title: '远方来信' });
    expect(checked.bookId).toBe(seen.bookId);
    expect(checked.chapters.map((c: { outcome: string }) => c.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(await counts()).toEqual({ ...before, jobs: before.jobs + 3 });
  });

  it('stops at a corrupt page, naming the archive and the page, and keeps the chapters before it', async () => {
    const broken = await zipBytes({
      '1/1.png': await png(200, 200),
      '2/1.png': (await png(200, 200)).subarray(0, 60),
    });
    const res = await kit.upload('owner', '/api/admin/imports', uploadForm('file', '坏书.zip', broken));
    const failed = await finished(res.json().data.import.id);
    expect(failed.state).toBe('failed');
    expect(failed.message).toContain('坏书.zip');
    expect(failed.message).toContain('2/1.png');
    // Said in Chinese: the image library's own (English) words do not reach the console.
    expect(failed.message).toContain('不是可读的图片');
    expect(failed.message.replace(/[^\s：:]*\.(png|zip)/g, '')).not.toMatch(/[A-Za-z]{3,}/);
    expect(failed.message).not.toContain('uploads');
    expect(failed.chapters).toEqual([{ number: 1, title: '1', pages: 1, price: 0, outcome: 'added' }]);
    const [kept] = await t.db.select().from(books).where(eq(books.title, '坏书'));
    expect(kept?.chapterCount).toBe(1);
    await expect.poll(uploadsLeft).toEqual([]); // removed just after the row is written
  });

  it('refuses wrong roles, no session, bad forms and a file too large, changing nothing', async () => {
    const before = await counts();
    const form = () => uploadForm('file', 'x.zip', book);
    for (const role of ['finance', 'support'] as const) {
      const res = await kit.upload(role, '/api/admin/imports', form());
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toBe('当前角色无权进行此操作');
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports',
      headers: { origin: kit.origin },
      payload: form(),
    });
    expect(anonymous.statusCode).toBe(401);
    const notArchive = await kit.upload('owner', '/api/admin/imports', uploadForm('file', 'x.rar', book));
    expect(notArchive.json()).toMatchObject({
      code: 400,
      msg: '请上传 .cbz 或 .zip 文件',
      data: { field: 'file' },
    });
    const badPrice = await kit.upload(
      'owner',
      '/api/admin/imports',
      uploadForm('file', 'x.zip', book, { price: '-1' }),
    );
    expect(badPrice.json()).toMatchObject({ code: 400, data: { field: 'price' } });
    const noFile = await kit.admin('owner', 'POST', '/api/admin/imports', { price: 1 });
    expect(noFile.statusCode).toBe(400);
    const large = await kit.upload(
      'owner',
      '/api/admin/imports',
      uploadForm('file', 'big.zip', Buffer.alloc(1024 * 1024 + 10)),
    );
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ code: 413, msg: '文件过大，最大 1 MB', data: { field: 'file' } });
    expect(await counts()).toEqual(before);
    await expect.poll(uploadsLeft).toEqual([]); // removed just after the row is written
  });

  it('resumes an import whose server stopped, gives up after two runs or when its file is gone', async () => {
    // As a server killed mid-import leaves it: running, its heartbeat two minutes old, its archive still there.
    const place = (await readFile(path.join(t.config.dataDir, 'uploads/.place'), 'utf8')).trim();
    const folder = path.join(t.config.dataDir, 'uploads', 'left-behind');
    await mkdir(path.join(folder, 'x'), { recursive: true });
    const source = path.join(folder, 'x', '续传.zip');
    await writeFile(source, book);
    const left = (values: Partial<typeof importJobs.$inferInsert>) =>
      t.db
        .insert(importJobs)
        .values({
          actor: 'owner1',
          fileName: '续传.zip',
          options: {},
          place,
          folder,
          source,
          state: 'running',
          attempts: 1,
          updatedAt: sql`now() - interval '2 minutes'`,
          ...values,
        })
        .returning()
        .then((rows) => rows[0] as { id: number });
    const resumed = await left({});
    expect(await job(resumed.id)).toMatchObject({
      state: 'queued',
      message: '服务器中断，恢复运行后自动继续',
    });
    // Run twice already, and its server ended both times: not run a third time.
    const tooMany = await left({
      attempts: 2,
      createdAt: sql`now() - interval '1 minute'` as unknown as Date,
    });
    const gone = await left({ source: path.join(folder, 'missing.zip') });
    const elsewhere = await left({ place: 'another-data-directory' });
    // The worker takes them one at a time, oldest first, as a restarted server's loop would.
    for (let i = 0; i < 3; i++) await t.app.jobs.runOnce('import-jobs');
    const done = await finished(resumed.id);
    expect(done).toMatchObject({ state: 'done', pagesDone: 3, pagesTotal: 3 });
    expect(done.chapters).toHaveLength(2);
    expect(await finished(tooMany.id)).toMatchObject({
      state: 'failed',
      message: '导入多次中断服务器，请检查文件后重新上传',
    });
    for (let i = 0; i < 3 && (await job(gone.id)).state !== 'failed'; i++)
      await t.app.jobs.runOnce('import-jobs');
    expect(await finished(gone.id)).toMatchObject({
      state: 'failed',
      message: '上传的文件已不在服务器上，请重新上传',
    });
    // Another data directory's import is not this server's to run.
    expect((await job(elsewhere.id)).state).toBe('queued');
    await t.db.delete(importJobs).where(eq(importJobs.id, elsewhere.id));
  });

  const comicInfo = (fields: Record<string, string>, pages = '') =>
    `<?xml version="1.0"?><ComicInfo>${Object.entries(fields)
      .map(([k, v]) => `<${k}>${v}</${k}>`)
      .join('')}${pages}</ComicInfo>`;

  it('cuts ComicInfo text to the book limits, and refuses a ComicInfo.xml too large before reading it', async () => {
    const long = await zipBytes({
      'ComicInfo.xml': comicInfo({
        Series: `长${'名'.repeat(300)}`,
        Writer: 'w'.repeat(80),
        Summary: '简'.repeat(40_000),
        Genre: `长分类${'类'.repeat(40)}`,
        Title: '题'.repeat(500),
      }),
      '1.png': await png(200, 300),
    });
    const res = await kit.upload('owner', '/api/admin/imports', uploadForm('file', '长文.cbz', long));
    const done = await finished(res.json().data.import.id);
    expect(done.state, done.message).toBe('done');
    const [row] = await t.db.select().from(books).where(eq(books.id, done.bookId));
    expect([...(row?.title ?? '')]).toHaveLength(BOOK_TEXT_LIMITS.title);
    expect(row?.author).toBe('w'.repeat(BOOK_TEXT_LIMITS.author));
    expect(row?.abstractContent).toBe('简'.repeat(BOOK_TEXT_LIMITS.description));
    const [category] = await t.db
      .select()
      .from(categories)
      .where(eq(categories.id, row?.categoryId ?? 0));
    expect(category?.name).toBe(`长分类${'类'.repeat(BOOK_TEXT_LIMITS.category - 3)}`);
    expect(done.chapters[0].title).toBe('题'.repeat(BOOK_TEXT_LIMITS.chapterTitle));

    // A ComicInfo.xml of megabytes (a Series of millions of characters) is refused unread: nothing is written.
    const before = await counts();
    const hostile = await zipBytes({
      'ComicInfo.xml': comicInfo({ Series: '名'.repeat(3_000_000), Genre: '不该有的分类' }),
      '1.png': await png(200, 300),
    });
    expect(hostile.length).toBeLessThan(200_000);
    const refused = await kit.upload('owner', '/api/admin/imports', uploadForm('file', '巨型.cbz', hostile));
    const failed = await finished(refused.json().data.import.id);
    expect(failed).toMatchObject({ state: 'failed', chapters: [] });
    expect(failed.message).toBe('巨型.cbz › ComicInfo.xml: 大于 256 KB，不是正常的漫画信息文件，已拒绝导入');
    expect(await counts()).toEqual({ ...before, jobs: before.jobs + 1 });
    expect(await t.db.$count(categories, eq(categories.name, '不该有的分类'))).toBe(0);
  });

  /** The readers' search (POST /api/book/search): the ids of page 1. */
  const searchIds = async (content: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/book/search?content=${encodeURIComponent(content)}`,
    });
    expect(res.json().result, content).toBe(true);
    return (res.json().data as { bookId: number }[]).map((b) => b.bookId);
  };

  it('takes ComicInfo LocalizedSeries and AlternateSeries as the aliases readers find the book by', async () => {
    const archive = await zipBytes({
      'ComicInfo.xml': comicInfo({
        Series: '海边的猫',
        LocalizedSeries: ' 海猫物语 ',
        AlternateSeries: 'Sea Cats',
        Writer: '白石',
      }),
      '1.png': await png(200, 300),
    });
    const res = await kit.upload('editor', '/api/admin/imports', uploadForm('file', '海猫.cbz', archive));
    const done = await finished(res.json().data.import.id);
    expect(done.state, done.message).toBe('done');
    const edited = (await kit.admin('editor', 'GET', `/api/admin/books/${done.bookId}`)).json().data;
    expect(edited).toMatchObject({ title: '海边的猫', aliases: ['海猫物语', 'Sea Cats'] });

    // The search-keys job keys books the console did not write (every 2 s on a running server): run it now.
    await t.app.jobs.runOnce('search-keys');
    // The alias as written, in traditional characters, by its pinyin and initials, and the other one folded.
    for (const keyword of ['海猫物语', '海貓物語', 'haimaowuyu', 'hmwy', 'sea cats', 'ＳＥＡＣＡＴＳ']) {
      expect(await searchIds(keyword), keyword).toContain(done.bookId);
    }
    // And by part of it, as titles are.
    expect(await searchIds('猫物')).toContain(done.bookId);
  });

  it('cuts an over-long alias to the limit, drops blanks, repeats and the title, and still imports', async () => {
    // ComicInfo has two such fields, so at most two aliases (fewer than BOOK_TEXT_LIMITS.aliases); each is cut to
    // BOOK_TEXT_LIMITS.alias characters, never refused.
    const long = `长${'名'.repeat(BOOK_TEXT_LIMITS.alias + 30)}`;
    const cut = async (fields: Record<string, string>, name: string) => {
      const archive = await zipBytes({ 'ComicInfo.xml': comicInfo(fields), '1.png': await png(200, 300) });
      const res = await kit.upload('owner', '/api/admin/imports', uploadForm('file', name, archive));
      const done = await finished(res.json().data.import.id);
      expect(done.state, done.message).toBe('done');
      const [row] = await t.db.select().from(books).where(eq(books.id, done.bookId));
      return { id: done.bookId as number, aliases: row?.aliases };
    };
    const overLong = await cut(
      { Series: '长别名之书', LocalizedSeries: long, AlternateSeries: '   ' },
      '长别名.cbz',
    );
    expect(overLong.aliases).toEqual([long.slice(0, BOOK_TEXT_LIMITS.alias)]);
    await t.app.jobs.runOnce('search-keys');
    expect(await searchIds(`长${'名'.repeat(19)}`)).toContain(overLong.id);

    const repeated = await cut(
      { Series: '同名之书', LocalizedSeries: '同名之书', AlternateSeries: '另一个名字' },
      '同名.cbz',
    );
    expect(repeated.aliases).toEqual(['另一个名字']);
    const twice = await cut(
      { Series: '两遍之书', LocalizedSeries: '又一名', AlternateSeries: '又一名' },
      '两遍.cbz',
    );
    expect(twice.aliases).toEqual(['又一名']);
  });

  it('leaves no book and no new category when an import fails before its first chapter', async () => {
    const before = await counts();
    const broken = await zipBytes({
      'ComicInfo.xml': comicInfo({ Series: '半途而废', Genre: '新分类' }),
      '1.png': (await png(200, 200)).subarray(0, 60),
    });
    const res = await kit.upload('owner', '/api/admin/imports', uploadForm('file', '半途.cbz', broken));
    const failed = await finished(res.json().data.import.id);
    expect(failed.state).toBe('failed');
    expect(failed.chapters).toEqual([]);
    expect(await counts()).toEqual({ ...before, jobs: before.jobs + 1 });
    expect(await t.db.$count(books, eq(books.title, '半途而废'))).toBe(0);
    expect(await t.db.$count(categories, eq(categories.name, '新分类'))).toBe(0);
    // Readers' search does not find it either.
    const search = await t.app.inject({
      method: 'POST',
      url: `/api/book/search?content=${encodeURIComponent('半途而废')}`,
    });
    expect(JSON.stringify(search.json())).not.toContain('半途而废');
  });

  it('never makes a priced page the public cover: the archive’s cover image, a free page, or none', async () => {
    const priced = { freeChapters: '0', price: '10' };
    const coverOf = async (name: string, entries: Record<string, Buffer | string>) => {
      const res = await kit.upload(
        'owner',
        '/api/admin/imports',
        uploadForm('file', name, await zipBytes(entries), priced),
      );
      const done = await finished(res.json().data.import.id);
      expect(done.state, done.message).toBe('done');
      const [row] = await t.db.select().from(books).where(eq(books.id, done.bookId));
      const [chapter] = await t.db.select().from(chapters).where(eq(chapters.bookId, done.bookId));
      expect(chapter?.cover).toBe(row?.cover);
      if (!row?.cover) return { cover: '', height: 0, pages: chapter?.pics ?? [] };
      const bytes = await readFile(path.join(t.config.imageRoot, row.cover));
      return { cover: row.cover, height: (await sharp(bytes).metadata()).height, pages: chapter?.pics ?? [] };
    };
    // Only priced pages: no cover (an operator sets one).
    const none = await coverOf('无封面.cbz', { '1.png': await png(200, 301), '2.png': await png(200, 302) });
    expect(none.cover).toBe('');
    // A cover.png beside the chapter folders: the cover, not a chapter.
    const file = await coverOf('有封面.zip', {
      'cover.png': await png(200, 333),
      '第1话/1.png': await png(200, 311),
      '第2话/1.png': await png(200, 312),
    });
    expect(file.height).toBe(333);
    expect(file.pages).toHaveLength(1);
    // ComicInfo's FrontCover page (by its index in page order).
    const marked = await coverOf('标记封面.cbz', {
      'ComicInfo.xml': comicInfo(
        { Series: '标记封面之书' },
        '<Pages><Page Image="0"/><Page Image="1" Type="FrontCover"/></Pages>',
      ),
      '1.png': await png(200, 321),
      '2.png': await png(200, 322),
    });
    expect(marked.height).toBe(322);
    // A free first chapter: its first page, as before.
    const res = await kit.upload(
      'owner',
      '/api/admin/imports',
      uploadForm(
        'file',
        '免费.zip',
        await zipBytes({ '1/1.png': await png(200, 341), '2/1.png': await png(200, 342) }),
        {
          freeChapters: '1',
          price: '10',
        },
      ),
    );
    const free = await finished(res.json().data.import.id);
    const [row] = await t.db.select().from(books).where(eq(books.id, free.bookId));
    const bytes = await readFile(path.join(t.config.imageRoot, row?.cover ?? ''));
    expect((await sharp(bytes).metadata()).height).toBe(341);
  });

  it('lists imports newest first with their total', async () => {
    const list = (await kit.admin('finance', 'GET', '/api/admin/imports?size=2')).json().data;
    expect(list.total).toBe(await t.db.$count(importJobs));
    expect(list.list).toHaveLength(2);
    expect(list.list[0].id).toBeGreaterThan(list.list[1].id);
  });
});
