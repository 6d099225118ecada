// As it was found: a tiny archive whose ComicInfo.xml carries a Series of millions of characters
// (and a 40,000-character Summary) once froze the whole server (no /healthz, no SIGTERM) for minutes. Uploaded to the
// real server process, it must end cleanly while /healthz answers at once throughout, and the server must still stop
// on SIGTERM while an import works.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { operatorCommands } from '../src/modules/operators/index.ts';
import { png, zipBytes } from './comic-files.ts';
import { newDataDir } from './data-dirs.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { createTestDatabase, dbAvailable, dbKind, type TestDatabase } from './test-database.ts';

/**
 * The slowest /healthz answer allowed while an import works: seconds, not the minutes these archives took before
 * (a test machine of 2 cores shared by many test runs stalls a healthy server for a second or two at times).
 */
const PROMPT_MS = 5000;
/** 40,000 different-looking CJK characters: the most grams a cut description can have. */
const summary = Array.from({ length: 40_000 }, (_, i) =>
  String.fromCharCode(0x4e00 + ((i * 7919) % 20_000)),
).join('');

const comicInfo = (fields: Record<string, string>) =>
  `<?xml version="1.0"?><ComicInfo>${Object.entries(fields)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('')}</ComicInfo>`;

describe.skipIf(!dbAvailable)('a hostile archive uploaded to the real server', () => {
  let dataDir: string;
  let pgDatabase: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;
  let password: string;

  beforeAll(async () => {
    dataDir = await newDataDir('hostile-import');
    env = { DATA_DIR: dataDir, DEMO_LIBRARY: 'false', IMPORT_UPLOAD_MB: '20' };
    // The first operator, written before the server starts (the embedded database is the server's once it runs).
    if (dbKind === 'postgres') {
      pgDatabase = await createTestDatabase();
      env.DATABASE_URL = pgDatabase.url as string;
      ({ password } = await operatorCommands(pgDatabase.db).add('owner7', 'owner'));
    } else {
      const opened = await openDatabase({ kind: 'pglite', dataDir });
      ({ password } = await operatorCommands(opened.db).add('owner7', 'owner'));
      await opened.close();
    }
    // The build `npm start` runs (npm run build before the tests, as for the other tests of the process).
    server = await startServer(await freePort(), env);
  }, 300_000);
  afterAll(async () => {
    server?.kill('SIGKILL');
    await server?.exited;
    await pgDatabase?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function signIn(base: string) {
    const res = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'owner7', password }),
    });
    const cookie = /yadm=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error(`no session: ${await res.text()}`);
    return cookie;
  }

  async function upload(base: string, cookie: string, name: string, bytes: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${base}/api/admin/imports`, {
      method: 'POST',
      headers: { origin: base, cookie },
      body: form,
    });
    expect(res.status).toBe(202);
    return (await res.json()).data.import.id as number;
  }

  /** Polls /healthz every 50 ms until `until` resolves: the slowest answer (a failed one counts as forever). */
  async function watchHealth<T>(base: string, until: Promise<T>) {
    let done = false;
    let slowest = 0;
    const watching = (async () => {
      while (!done) {
        const started = performance.now();
        const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(30_000) }).then(
          (r) => r.ok,
          () => false,
        );
        slowest = Math.max(slowest, ok ? performance.now() - started : Number.POSITIVE_INFINITY);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      return { result: await until, slowest: () => slowest };
    } finally {
      done = true;
      await watching;
    }
  }

  async function finished(base: string, cookie: string, id: number) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const seen = (await (await fetch(`${base}/api/admin/imports/${id}`, { headers: { cookie } })).json())
        .data.import;
      if (seen.state === 'done' || seen.state === 'failed') return seen;
      if (Date.now() > deadline) throw new Error(`import ${id} never ended: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('ends each hostile import cleanly while /healthz answers at once, and stops on SIGTERM mid-import', async () => {
    const { base } = server as ServerProcess;
    const cookie = await signIn(base);

    // A Series of 5 million characters and a Summary of 40,000: refused before its ComicInfo.xml is parsed.
    const huge = await zipBytes({
      'ComicInfo.xml': comicInfo({ Series: '名'.repeat(5_000_000), Summary: summary }),
      '1.png': await png(200, 300),
    });
    expect(huge.length).toBeLessThan(200_000);
    const refused = await watchHealth(
      base,
      finished(base, cookie, await upload(base, cookie, 'huge.cbz', huge)),
    );
    expect(refused.result).toMatchObject({ state: 'failed', chapters: [] });
    expect(refused.result.message).toContain('ComicInfo.xml: 大于 256 KB');
    expect(refused.slowest()).toBeLessThan(PROMPT_MS);

    // Just under the size refused: a Series of 30,000 characters and a Summary of 40,000, imported and cut.
    const long = await zipBytes({
      'ComicInfo.xml': comicInfo({ Series: `长${'名'.repeat(30_000)}`, Summary: summary }),
      '1.png': await png(200, 300),
    });
    const cut = await watchHealth(base, finished(base, cookie, await upload(base, cookie, 'long.cbz', long)));
    expect(cut.result).toMatchObject({ state: 'done', message: null });
    expect([...cut.result.title]).toHaveLength(100);
    expect(cut.slowest()).toBeLessThan(PROMPT_MS);
    // Readers find it by its words.
    const search = await fetch(`${base}/api/book/search?content=${encodeURIComponent('长名名')}`, {
      method: 'POST',
      headers: { origin: base },
    });
    const found = await search.json();
    expect(
      found.data?.map((b: { bookId: number }) => b.bookId),
      JSON.stringify(found),
    ).toContain(cut.result.bookId);

    // SIGTERM while an import of many pages works: the server stops promptly and cleanly.
    const pages: Record<string, Buffer> = {};
    for (let c = 1; c <= 3; c++)
      for (let p = 1; p <= 30; p++) pages[`第${c}话/${p}.png`] = await png(500, 700 + p);
    const busy = await upload(base, cookie, 'busy.zip', await zipBytes(pages));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const seen = (await (await fetch(`${base}/api/admin/imports/${busy}`, { headers: { cookie } })).json())
        .data.import;
      if (seen.state === 'running' && seen.pagesDone > 0) break;
      if (seen.state === 'done' || Date.now() > deadline)
        throw new Error(`not caught mid-import: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const asked = performance.now();
    server?.kill('SIGTERM');
    expect(await server?.exited).toBe(0);
    expect(performance.now() - asked).toBeLessThan(15_000);
  }, 300_000);
});
