import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../test/test-database.ts';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts';

describe.skipIf(dbKind !== 'pglite')('the data-dir lock', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'yueman-lock-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a second holder at once while the first is alive, and allows one after release', async () => {
    const release = await lockDataDir(dir);
    const started = Date.now();
    await expect(lockDataDir(dir, { waitMs: 10_000 })).rejects.toThrow(DataDirLockedError);
    await expect(lockDataDir(dir)).rejects.toThrow(`pid ${process.pid}`);
    expect(Date.now() - started).toBeLessThan(2000);
    await release();
    const again = await lockDataDir(dir);
    await again();
  });
});

describe.skipIf(dbKind !== 'pglite')('the data-dir lock after a crash', () => {
  it('takes over at once from a holder that no longer runs', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'yueman-lock-'));
    const { spawnSync } = await import('node:child_process');
    // A child takes the lock and dies without releasing it, as SIGKILL would leave it.
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${path.resolve(import.meta.dirname, 'data-dir-lock.ts')}').then(m => m.lockDataDir('${dir}')).then(() => process.kill(process.pid, 'SIGKILL'))`,
      ],
      { cwd: path.resolve(import.meta.dirname, '../../../..') },
    );
    expect(child.signal).toBe('SIGKILL');
    const started = Date.now();
    const release = await lockDataDir(dir);
    expect(Date.now() - started).toBeLessThan(2000);
    await release();
    await rm(dir, { recursive: true, force: true });
  });
});
