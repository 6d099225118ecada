// An import uploaded in the console survives its server: SIGKILLed mid-import, the server leaves only whole
// chapters, and started again on the same data directory it claims the import from the queue and finishes it, once.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { books, chapters, importJobs } from '../src/db/schema/index.ts';
import { runCli } from './cli-process.ts';
import { png, zipBytes } from './comic-files.ts';
import { newDataDir } from './data-dirs.ts';
import { childrenOf } from './processes.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { dbKind } from './test-database.ts';

const CHAPTERS = 4;
const PAGES = 25;

// The embedded database: the one a killed server leaves for the next to open (PostgreSQL's own recovery is its own).
describe.skipIf(dbKind === 'postgres')('an uploaded import across a server killed mid-way', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  const env = () => ({ DATA_DIR: dataDir, DEMO_LIBRARY: 'false' });
  const start = async () => {
    server = await startServer(await freePort(), env());
    return server;
  };
  const stop = (signal: NodeJS.Signals) => {
    if (!server) return;
    for (const pid of childrenOf(server.pid)) process.kill(pid, signal);
    server.kill(signal);
  };

  beforeAll(async () => {
    dataDir = await newDataDir('import-resume');
  });
  afterAll(async () => {
    stop('SIGKILL');
    await server?.exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  async function signIn(base: string, name: string, password: string) {
    const res = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ name, password }),
    });
    const cookie = /yadm=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error(`no session: ${await res.text()}`);
    return cookie;
  }

  it('leaves whole chapters when killed, then finishes the import after a restart', async () => {
    let { base } = await start();
    const added = await runCli('operator-cli', ['add', 'owner9', '--role', 'owner'], env());
    const password = /password: (\S+)/.exec(added.out)?.[1] as string;
    let cookie = await signIn(base, 'owner9', password);

    const entries: Record<string, Buffer> = {};
    for (let c = 1; c <= CHAPTERS; c++) {
      for (let p = 1; p <= PAGES; p++) entries[`第${c}话/${p}.png`] = await png(600, 900 + p);
    }
    const form = new FormData();
    form.append('title', '长夜');
    form.append('file', new Blob([new Uint8Array(await zipBytes(entries))]), 'long.zip');
    const upload = await fetch(`${base}/api/admin/imports`, {
      method: 'POST',
      headers: { origin: base, cookie },
      body: form,
    });
    expect(upload.status).toBe(202);
    const id = (await upload.json()).data.import.id as number;
    const job = async () =>
      (await (await fetch(`${base}/api/admin/imports/${id}`, { headers: { cookie } })).json()).data.import;

    // Killed the moment the second chapter's pages start landing in the store (pages/imports/{book}/2-{hash}/):
    // its row is not written yet, the first chapter's is.
    const imported = path.join(dataDir, 'images/pages/imports');
    const secondChapterStarted = async () => {
      for (const book of await readdir(imported).catch(() => [])) {
        if ((await readdir(path.join(imported, book))).some((d) => d.startsWith('2-'))) return true;
      }
      return false;
    };
    const until = Date.now() + 60_000;
    while (!(await secondChapterStarted())) {
      if (Date.now() > until)
        throw new Error(`the import never reached chapter 2: ${JSON.stringify(await job())}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    stop('SIGKILL');
    await server?.exited;

    const state = async () => {
      const opened = await openDatabase({ kind: 'pglite', dataDir });
      try {
        const [book] = await opened.db.select().from(books).where(eq(books.title, '长夜'));
        const rows = book ? await opened.db.select().from(chapters).where(eq(chapters.bookId, book.id)) : [];
        const [row] = await opened.db.select().from(importJobs).where(eq(importJobs.id, id));
        return { count: book?.chapterCount ?? 0, pages: rows.map((r) => r.pics.length), row };
      } finally {
        await opened.close();
      }
    };
    const killed = await state();
    // Whatever was written is whole, and the import is left running for the next server.
    expect(killed.pages.every((n) => n === PAGES)).toBe(true);
    expect(killed.count).toBe(killed.pages.length);
    expect(killed.count).toBeLessThan(CHAPTERS);
    expect(killed.row).toMatchObject({ state: 'running', attempts: 1 });

    ({ base } = await start());
    cookie = await signIn(base, 'owner9', password);
    const deadline = Date.now() + 60_000;
    let seen = await job();
    while (seen.state !== 'done' && seen.state !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      seen = await job();
    }
    expect(seen).toMatchObject({ state: 'done', pagesDone: CHAPTERS * PAGES, message: null });
    // The archive goes once the job is done (just after it is marked so, on a loaded machine a moment later).
    await expect
      .poll(async () => (await readdir(path.join(dataDir, 'uploads'))).filter((n) => !n.startsWith('.')), {
        timeout: 15_000,
      })
      .toEqual([]);
    stop('SIGTERM');
    await server?.exited;
    const finished = await state();
    expect(finished.count).toBe(CHAPTERS);
    expect(finished.pages).toEqual(Array(CHAPTERS).fill(PAGES));
    expect(finished.row?.attempts).toBe(2);
  }, 180_000);
});
