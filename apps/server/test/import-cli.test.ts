// `npm run import` on real files: a folder of chapter folders, .cbz archives with ComicInfo.xml, a corrupt page, a
// page too tall, a re-import, a dry run, a changed chapter; with no server (it opens the embedded database) and
// beside a running server (which does the import through its control socket). The pages readers then get are checked
// through the server.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { books, categories, chapters, imageAssets } from '../src/db/schema/index.ts';
import { builtCli, runCli } from './cli-process.ts';
import { png, zip } from './comic-files.ts';
import { newDataDir } from './data-dirs.ts';
import { childrenOf } from './processes.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { dbKind } from './test-database.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = builtCli('import-cli');

const importCli = (args: string[], env: Record<string, string>) =>
  runCli('import-cli', args, { DEMO_LIBRARY: 'false', ...env });

const comicInfo = (number: number, title: string) => `<?xml version="1.0" encoding="utf-8"?>
<ComicInfo><Series>星河旅人</Series><Number>${number}</Number><Title>${title}</Title><Writer>林一</Writer>
<Summary>一段旅程。</Summary><Genre>科幻</Genre><Tags>太空,冒险</Tags></ComicInfo>`;

describe.skipIf(dbKind === 'postgres')('npm run import', () => {
  let work: string;
  let dataDir: string;
  const env = () => ({ DATA_DIR: dataDir });

  async function inDatabase<T>(read: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>) {
    const opened = await openDatabase({ kind: 'pglite', dataDir });
    try {
      return await read(opened.db);
    } finally {
      await opened.close();
    }
  }

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'yueman-import-'));
    dataDir = await newDataDir('import-data');
    // A folder of chapter folders: 第1话 with pages 1, 2, 10 (natural order) and a page 7 × its width.
    const folders = path.join(work, '山海小记');
    for (const [chapter, pages] of [
      [
        '第1话 出发',
        { '1.png': await png(100, 110), '2.png': await png(100, 120), '10.png': await png(100, 130) },
      ],
      ['第2话', { 'a.png': await png(100, 700) }],
    ] as const) {
      await mkdir(path.join(folders, chapter), { recursive: true });
      for (const [name, body] of Object.entries(pages))
        await writeFile(path.join(folders, chapter, name), body);
    }
    // A folder of .cbz, each with its ComicInfo; the third has a corrupt second page.
    const cbz = path.join(work, 'cbz');
    await mkdir(cbz);
    await zip(path.join(cbz, 'vol-1.cbz'), {
      'ComicInfo.xml': comicInfo(1, '启程'),
      '01.png': await png(80, 90),
      '02.png': await png(80, 95),
    });
    await zip(path.join(cbz, 'vol-2.cbz'), {
      'ComicInfo.xml': comicInfo(2, '星门'),
      '01.png': await png(80, 91),
    });
    const broken = (await png(80, 92)).subarray(0, 60);
    await zip(path.join(cbz, 'vol-3.cbz'), {
      'ComicInfo.xml': comicInfo(3, '坠落'),
      '01.png': await png(80, 93),
      '02.png': broken,
    });
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('tells a wrong command line and a file it cannot read in Chinese', async () => {
    const usage = await importCli(['--price', 'x', work], env());
    expect(usage.code).toBe(2);
    // The first line is the reason; the tool's usage follows it.
    expect(usage.out.split('\n')[0]).toBe('import: --price 须为不小于 1 的整数，收到的是 "x"');
    await writeFile(path.join(work, 'fake.cbz'), 'not an archive');
    const fake = await importCli([path.join(work, 'fake.cbz'), '--dry-run'], env());
    expect(fake.code).toBe(1);
    expect(fake.out).toContain('fake.cbz: 不是完整的 zip 压缩包（可能未传完或已损坏）');
  }, 60_000);

  it('imports a folder of chapter folders: natural page order, tall pages cut, all free, the book created', async () => {
    const plan = await importCli([path.join(work, '山海小记'), '--dry-run'], env());
    expect(plan.code, plan.out).toBe(0);
    expect(plan.out).toContain('《山海小记》');
    expect(plan.out).toMatch(/第1话 {2}第1话 出发 {2}3 页 {2}免费 {2}将导入/);
    const done = await importCli(
      [path.join(work, '山海小记'), '--free-chapters', '1', '--price', '30'],
      env(),
    );
    expect(done.code, done.out).toBe(0);
    expect(done.out).toMatch(/第2话 {2}第2话 {2}4 页 {2}30 阅币 {2}新增/);

    const { book, rows, sizes } = await inDatabase(async (db) => {
      const [b] = await db.select().from(books).where(eq(books.title, '山海小记'));
      const r = await db
        .select()
        .from(chapters)
        .where(eq(chapters.bookId, b?.id as number))
        .orderBy(asc(chapters.number));
      const s = await db.select().from(imageAssets);
      return { book: b, rows: r, sizes: new Map(s.map((x) => [x.path, x.height])) };
    });
    expect(book).toMatchObject({ chapterCount: 2, publishStatus: 'serialize', vipFree: false });
    expect(rows.map((c) => [c.number, c.title, c.price])).toEqual([
      [1, '第1话 出发', 0],
      [2, '第2话', 30],
    ]);
    expect(rows[0]?.pics.map((p) => sizes.get(p))).toEqual([110, 120, 130]);
    // 700 high at 100 wide: four parts of at most 200, top to bottom.
    expect(rows[1]?.pics.map((p) => sizes.get(p))).toEqual([175, 175, 175, 175]);
  }, 120_000); // two runs open the database: the dry run reads it too

  it('reads ComicInfo from .cbz files, stops at a corrupt page naming it, keeps the chapters before it', async () => {
    const res = await importCli([path.join(work, 'cbz')], env());
    expect(res.code, res.out).toBe(1);
    expect(res.out).toContain('vol-3.cbz › 02.png');
    const { book, rows, genre } = await inDatabase(async (db) => {
      const [b] = await db.select().from(books).where(eq(books.title, '星河旅人'));
      const r = await db
        .select()
        .from(chapters)
        .where(eq(chapters.bookId, b?.id as number))
        .orderBy(asc(chapters.number));
      const [c] = await db
        .select()
        .from(categories)
        .where(eq(categories.id, b?.categoryId as number));
      return { book: b, rows: r, genre: c?.name };
    });
    expect(book).toMatchObject({ author: '林一', abstractContent: '一段旅程。', chapterCount: 2 });
    expect(genre).toBe('科幻');
    expect(rows.map((c) => [c.number, c.title, c.pics.length])).toEqual([
      [1, '启程', 2],
      [2, '星门', 1],
    ]);
  }, 60_000);

  it('changes nothing on a re-import, and refuses a changed chapter unless --replace', async () => {
    const again = await importCli(
      [path.join(work, '山海小记'), '--free-chapters', '1', '--price', '30'],
      env(),
    );
    expect(again.code, again.out).toBe(0);
    expect(again.out.match(/未变/g)).toHaveLength(2);
    await writeFile(path.join(work, '山海小记', '第2话', 'b.png'), await png(100, 150));
    const changed = await importCli([path.join(work, '山海小记')], env());
    expect(changed.code).toBe(1);
    expect(changed.out).toContain('第2话 已存在且内容不同');
    const replaced = await importCli([path.join(work, '山海小记'), '--replace'], env());
    expect(replaced.code, replaced.out).toBe(0);
    expect(replaced.out).toMatch(/第2话 {2}第2话 {2}5 页 {2}免费 {2}已替换/);
  }, 60_000);

  it('leaves no half chapter when killed in the middle, and a second run finishes the book', async () => {
    const folder = path.join(work, '长篇');
    for (let c = 1; c <= 4; c++) {
      await mkdir(path.join(folder, `第${c}话`), { recursive: true });
      for (let p = 1; p <= 25; p++)
        await writeFile(path.join(folder, `第${c}话`, `${p}.png`), await png(400, 500 + p));
    }
    // Killed once the progress bar passes 30 of 100 pages: somewhere inside the second chapter.
    const killed = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [cli, folder], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr.on('data', (d: Buffer) => {
        const done = Math.max(...[...d.toString().matchAll(/(\d+)\/100 页/g)].map((m) => Number(m[1])), 0);
        if (done >= 30) child.kill('SIGKILL');
      });
      child.on('exit', (_code, signal) => resolve(signal === 'SIGKILL' ? 1 : 0));
    });
    expect(killed).toBe(1);
    const state = async () =>
      inDatabase(async (db) => {
        const [b] = await db.select().from(books).where(eq(books.title, '长篇'));
        const rows = b ? await db.select().from(chapters).where(eq(chapters.bookId, b.id)) : [];
        return { count: b?.chapterCount ?? 0, pages: rows.map((r) => r.pics.length).sort() };
      });
    const after = await state();
    // Whatever was written is whole: every chapter present has its 25 pages, and the count agrees.
    expect(after.pages.every((n) => n === 25)).toBe(true);
    expect(after.count).toBe(after.pages.length);
    expect(after.count).toBeLessThan(4);
    const again = await importCli([folder], env());
    expect(again.code, again.out).toBe(0);
    expect(await state()).toEqual({ count: 4, pages: [25, 25, 25, 25] });
  }, 120_000);

  describe('beside a running server', () => {
    let server: ServerProcess | undefined;
    beforeAll(async () => {
      server = await startServer(await freePort(), { DATA_DIR: dataDir, DEMO_LIBRARY: 'false' });
    }, 120_000);
    afterAll(async () => {
      if (server) for (const pid of childrenOf(server.pid)) process.kill(pid, 'SIGKILL');
      server?.kill('SIGKILL');
    });

    it('has the server import it, and a reader gets the new chapter’s pages at once', async () => {
      const folder = path.join(work, '云端来信');
      await mkdir(path.join(folder, '第1话'), { recursive: true });
      await writeFile(path.join(folder, '第1话', '1.png'), await png(120, 160));
      const res = await importCli([folder], env());
      expect(res.code, res.out).toBe(0);
      expect(res.out).toContain('done by the running server');
      const bookId = Number(/#(\d+)/.exec(res.out)?.[1]);
      const base = server?.base as string;
      const read = await (await fetch(`${base}/api/book/read_chapter?bookId=${bookId}&number=1`)).json();
      expect(read.data.bookPicSizes).toEqual([{ width: 120, height: 160 }]);
      const page = await fetch(`${base}/${read.data.bookPics[0]}_200_0.img`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('image/webp');
      // A dry run of the same folder, the server holding the database, finds the chapter there and unchanged.
      const plan = await importCli([folder, '--dry-run'], env());
      expect(plan.code, plan.out).toBe(0);
      expect(plan.out).toContain('done by the running server');
      expect(plan.out).toContain(`#${bookId}`);
      expect(plan.out).toMatch(/第1话 {2}第1话 {2}1 页 {2}免费 {2}未变/);
    });
  });
});
