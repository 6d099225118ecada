// A start that cannot go on says why in one log line naming the setting, without a stack trace; an optional
// service that is down at start does not stop it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServer } from './server-process.ts';
import { dbAvailable, dbKind, pgUrl } from './test-database.ts';

/** The output of a start that must fail (startServer rejects with it). */
async function failedStart(env: Record<string, string>): Promise<string> {
  const started = await startServer(await freePort(), env, { readyMs: 240_000 }).then(
    (server) => {
      server.kill('SIGKILL');
      return undefined;
    },
    (err: Error) => err.message,
  );
  expect(started, 'the server refused to start').toBeDefined();
  return started as string;
}

describe('starting with a bad setting or a missing service', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'yueman-startup-'));
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(dbKind !== 'pglite')('LOG_LEVEL=verbose names the setting', { timeout: 300_000 }, async () => {
    const out = await failedStart({ DATA_DIR: dataDir, LOG_LEVEL: 'verbose' });
    expect(out).toMatch(/exited with 1/);
    expect(out).toContain('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
    expect(out).not.toMatch(/\n\s+at /);
  });

  it.skipIf(dbKind !== 'postgres' || !dbAvailable)(
    'a DATABASE_URL whose database does not exist says so',
    { timeout: 300_000 },
    async () => {
      const url = new URL(pgUrl);
      url.pathname = '/no_such_database';
      const out = await failedStart({ DATA_DIR: dataDir, DATABASE_URL: url.href });
      expect(out).toContain('the database \\"no_such_database\\" named in DATABASE_URL does not exist');
      expect(out).toContain('"code":"3D000"');
    },
  );

  it.skipIf(dbKind !== 'pglite')(
    'an unreachable REDIS_URL starts all the same, counting the limits in memory, with a warning',
    { timeout: 300_000 },
    async () => {
      server = await startServer(
        await freePort(),
        { DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REGISTER_PER_HOUR: '2' },
        { readyMs: 240_000 },
      );
      const register = () => fetch(`${server?.base}/api/user/register`, { method: 'POST' });
      expect((await register()).status).toBe(200);
      expect((await register()).status).toBe(200);
      // The limit still holds, counted in this process.
      expect((await register()).status).toBe(429);
      expect(server.output()).toContain('Redis for the limits unreachable');
      server.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      server = undefined;
    },
  );
});
