// A first start as production starts (DEMO_LIBRARY=false, an empty DATA_DIR), as a real process: it becomes ready
// (the local image store's folder exists without the demo drawer), and everything it writes under
// DATA_DIR is its user's alone, the embedded database's files included (umask 077).
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from './test-database.ts';

/** Every entry under `dir` with its permission bits, as `relative path: mode` lines. */
async function modesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    const file = path.join(dir, entry);
    const stat = await lstat(file).catch(() => undefined);
    if (stat && !stat.isSymbolicLink()) found.push(`${entry}: ${(stat.mode & 0o777).toString(8)}`);
  }
  return found;
}

describeDb('a first start without the demo library', () => {
  let dataDir: string;
  let pg: TestDatabase | undefined;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-fresh-'));
    await rm(dataDir, { recursive: true });
    if (dbKind === 'postgres') pg = await createTestDatabase();
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await pg?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('becomes ready, and writes nothing others may read', { timeout: 300_000 }, async () => {
    server = await startServer(
      await freePort(),
      {
        DATA_DIR: dataDir,
        DEMO_LIBRARY: 'false',
        ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
      },
      // A fresh embedded database on a loaded 2-core machine takes a while.
      { readyMs: 240_000 },
    );
    const ready = await fetch(`${server.base}/readyz`);
    expect(await ready.json()).toMatchObject({ result: true, data: { status: 'ready', images: 'ok' } });
    expect(ready.status).toBe(200);
    // A write, so the database has written its own files by now.
    expect((await fetch(`${server.base}/api/user/register`, { method: 'POST' })).status).toBe(200);

    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
    const modes = await modesUnder(dataDir);
    if (dbKind === 'pglite') expect(modes.some((m) => m.startsWith('pglite/'))).toBe(true);
    expect(modes.length).toBeGreaterThan(3);
    const open = modes.filter((m) => !/: [67]00$/.test(m));
    expect(open, 'files 0600, folders 0700').toEqual([]);
  });
});
