import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../test/test-database.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const main = path.join(root, 'apps/server/src/main.ts');

function startServer(dataDir: string, port: number) {
  const child = spawn(tsx, [main], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('is ready on')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${output}`));
    });
  });
  return { child, ready, exited, output: () => output };
}

// The data-dir lock and the process lifecycle belong to the embedded database; one run is enough.
describe.skipIf(dbKind !== 'pglite')('the server process', () => {
  let dataDir: string;
  let first: ReturnType<typeof startServer>;
  const port = 18000 + Math.floor(Math.random() * 2000);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-main-'));
    first = startServer(dataDir, port);
    await first.ready;
  }, 60_000);
  afterAll(async () => {
    if (first?.child.exitCode === null) first.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts on an empty data directory with the demo library and answers /healthz', async () => {
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
    const home = await (await fetch(`http://127.0.0.1:${port}/api/book/home/index`)).json();
    expect(home.data.recommendList.length).toBeGreaterThan(0);
    expect(first.output()).toContain('"reqId"');
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
    const second = startServer(dataDir, port + 1);
    second.ready.catch(() => undefined);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another Yueman process');
  }, 30_000);

  it('shuts down cleanly on SIGTERM and releases the lock', async () => {
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const again = startServer(dataDir, port + 2);
    await again.ready;
    (again.child as ChildProcess).kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 60_000);
});
