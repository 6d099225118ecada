import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../test/test-database.ts';
import { createPrivateDir, DataDirLockedError, lockDataDir } from './data-dir-lock.ts';

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

describe.skipIf(dbKind !== 'pglite')('a copy of a locked data directory', () => {
  it('is taken by a new process while the holder of the original runs, and the original stays refused', {
    timeout: 120_000,
  }, async () => {
    const original = await mkdtemp(path.join(tmpdir(), 'yueman-lock-'));
    const copy = `${original}-copy`;
    // A live holder in another process, as a running server is.
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${path.resolve(import.meta.dirname, 'data-dir-lock.ts')}').then(m => m.lockDataDir('${original}')).then(() => { console.log('locked'); setInterval(() => {}, 1000); })`,
      ],
      { cwd: path.resolve(import.meta.dirname, '../../../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout?.on('data', (d) => String(d).includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
      });
      // Copied while running, lock directory and owner file included.
      await cp(original, copy, { recursive: true, preserveTimestamps: true });
      const started = Date.now();
      const release = await lockDataDir(copy);
      expect(Date.now() - started).toBeLessThan(2000);
      await release();
      await expect(lockDataDir(original)).rejects.toThrow(`pid ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
      await rm(original, { recursive: true, force: true });
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe.skipIf(dbKind !== 'pglite')('the data-dir lock and reused process ids', () => {
  const hostName = async () => (await import('node:os')).hostname();
  /** The state a holder leaves behind when it dies: a fresh lock directory and its owner file. */
  async function leftBehind(owner: object) {
    const dir = await mkdtemp(path.join(tmpdir(), 'yueman-lock-'));
    await mkdir(path.join(dir, 'yueman.lock'));
    await writeFile(
      path.join(dir, 'yueman.lock.owner.json'),
      JSON.stringify({ host: await hostName(), ...owner }),
    );
    return dir;
  }

  it('takes over at once when the recorded pid is our own (a restarted container)', async () => {
    const dir = await leftBehind({ pid: process.pid, start: '1' });
    const started = Date.now();
    const release = await lockDataDir(dir);
    expect(Date.now() - started).toBeLessThan(2000);
    await release();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes over from a live process that only reuses the pid, and refuses the real holder', async () => {
    const sleeper = spawn('sleep', ['30']);
    try {
      const pid = sleeper.pid ?? 0;
      const start = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ')[19];
      const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
      const reused = await leftBehind({ pid, boot, start: String(Number(start) - 100) });
      const release = await lockDataDir(reused);
      await release();
      const holder = await leftBehind({ pid, boot, start });
      await expect(lockDataDir(holder)).rejects.toThrow(`pid ${pid}`);
      await rm(reused, { recursive: true, force: true });
      await rm(holder, { recursive: true, force: true });
    } finally {
      sleeper.kill();
    }
  });

  it('creates the data directory for this user only, whatever the umask', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'yueman-mode-'));
    const before = process.umask(0);
    try {
      await createPrivateDir(path.join(parent, 'data'));
      expect((await stat(path.join(parent, 'data'))).mode & 0o777).toBe(0o700);
      await chmod(path.join(parent, 'data'), 0o777);
      await createPrivateDir(path.join(parent, 'data'));
      expect((await stat(path.join(parent, 'data'))).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(before);
      await rm(parent, { recursive: true, force: true });
    }
  });
});
