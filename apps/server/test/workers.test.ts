// WEB_CONCURRENCY: one server process forks several on its port (node:cluster, src/workers.ts), with PostgreSQL.
// The built server, as `npm start` runs it: the workers answer, a worker that dies is replaced, and SIGTERM drains
// them all and exits 0.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childrenOf, until } from './processes.ts';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { createTestDatabase, dbKind, type TestDatabase } from './test-database.ts';

describe.skipIf(dbKind !== 'postgres')('several server processes on one port (WEB_CONCURRENCY)', () => {
  let dataDir: string;
  let pg: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-workers-'));
    pg = await createTestDatabase({ demo: true });
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    for (const pid of server ? childrenOf(server.pid) : []) process.kill(pid, 'SIGKILL');
    await pg?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  // Three processes start, one is replaced: on a loaded 2-core CI machine this takes far longer than alone (~5 s).
  it('answers from every worker, replaces one that dies, and drains them all on SIGTERM', {
    timeout: 120_000,
  }, async () => {
    server = await startServer(await freePort(), {
      DATA_DIR: dataDir,
      DATABASE_URL: pg.url as string,
      WEB_CONCURRENCY: '2',
      REGISTER_PER_HOUR: '10000',
      LOG_LEVEL: 'info',
    });
    const { base, pid } = server;
    // /healthz answered from one worker; the other may still be starting, and one killed before it listened means
    // the server cannot start (workers.ts stops them all). So wait for the primary to see both listening.
    const started = server;
    await until('both workers listening', () =>
      started.output().includes('every server process is listening') ? true : undefined,
    );
    const workers = childrenOf(pid);
    expect(workers).toHaveLength(2);

    // Sessions live in the database: a visitor registered on one worker is known to both (new connections each).
    const register = await fetch(`${base}/api/user/register`, { method: 'POST' });
    const cookie = (register.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    for (let i = 0; i < 10; i++) {
      const info = await fetch(`${base}/api/user/info`, { headers: { cookie, connection: 'close' } });
      expect((await info.json()).result).toBe(true);
    }

    // A worker killed outright is replaced; the service answers meanwhile.
    process.kill(workers[0] as number, 'SIGKILL');
    const replaced = await until('a new worker', () => {
      const found = childrenOf(pid);
      return found.length === 2 && !found.includes(workers[0] as number) ? found : undefined;
    });
    expect(replaced).toContain(workers[1]);
    for (let i = 0; i < 10; i++) {
      expect((await fetch(`${base}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    }

    // SIGTERM: every worker drains and exits, then the primary exits 0.
    server.kill('SIGTERM');
    const code = await server.exited;
    expect(code, server.output()).toBe(0);
    for (const worker of replaced) expect(() => process.kill(worker, 0)).toThrow();
  });
});
