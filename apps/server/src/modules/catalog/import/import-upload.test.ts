// The console's import by upload: the archive goes through the same import as `npm run import`, runs in the
// background and reports its progress to whichever server the browser asks; refused input changes nothing.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { png, zipBytes } from '../../../../test/comic-files.ts';
import { auditedWrites, consoleOperators, uploadForm } from '../../../../test/console-kit.ts';
import { createTestApp, type TestApp } from '../../../../test/test-app.ts';
import { describeDb } from '../../../../test/test-database.ts';
import { auditLog, books, chapters, importJobs } from '../../../db/schema/index.ts';

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
    expect(await counts()).toEqual({ ...before, jobs: before.jobs + 2 });
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

  it('resumes an import whose server stopped, gives up after three runs or when its file is gone', async () => {
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
    const tooMany = await left({
      attempts: 3,
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

  it('lists imports newest first with their total', async () => {
    const list = (await kit.admin('finance', 'GET', '/api/admin/imports?size=2')).json().data;
    expect(list.total).toBe(await t.db.$count(importJobs));
    expect(list.list).toHaveLength(2);
    expect(list.list[0].id).toBeGreaterThan(list.list[1].id);
  });
});
