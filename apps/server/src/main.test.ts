import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer } from '../test/server-process.ts';
import { dbKind } from '../test/test-database.ts';

const start = (dataDir: string, port: number) => startServer(port, { DATA_DIR: dataDir, LOG_LEVEL: 'info' });

// The data-dir lock and the process lifecycle belong to the embedded database; one run is enough.
describe.skipIf(dbKind !== 'pglite')('the server process', () => {
  let dataDir: string;
  let first: ServerProcess;
  let port: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-main-'));
    port = await freePort();
    first = await start(dataDir, port);
    // A first start draws the demo library: over a minute on a busy machine.
  }, 150_000);
  afterAll(async () => {
    first?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts on an empty data directory with the demo library and answers /healthz', async () => {
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
    const home = await (await fetch(`http://127.0.0.1:${port}/api/book/home/index`)).json();
    expect(home.data.recommendList.length).toBeGreaterThan(0);
    expect(first.output()).toContain('"reqId"');
  });

  it('names the address readers start from and the console in its start log', async () => {
    // The bare domain answers the spec's placeholder (网站建设中); the log points at /home and /admin/.
    await expect
      .poll(() => first.output())
      .toContain(
        `readers start at http://localhost:${port}/home, the console is at http://localhost:${port}/admin/`,
      );
  });

  it('answers kept static calls over HTTP with ETag, 304 and compression', async () => {
    const url = `http://127.0.0.1:${port}/api/book/query/all/0/2`;
    const fresh = await fetch(url);
    const etag = fresh.headers.get('etag') ?? '';
    const body = await fresh.text();
    const kept = await fetch(url, { headers: { 'accept-encoding': 'br' } });
    expect(kept.headers.get('content-encoding')).toBe('br');
    expect(kept.headers.get('etag')).toBe(etag);
    expect(await kept.text()).toBe(body);
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(url, { method: 'PUT' })).status).toBe(404);
  });

  it('refuses a second process on the same data directory, saying why', async () => {
    const second = start(dataDir, await freePort());
    await expect(second).rejects.toThrow(/exited with 1:[\s\S]*is in use by another Yueman process/);
  }, 30_000);

  it('shuts down cleanly on SIGTERM and releases the lock', async () => {
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const again = await start(dataDir, await freePort());
    again.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 60_000);
});
