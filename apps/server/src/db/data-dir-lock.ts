import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {}

type OwnerState = { state: 'alive' | 'dead' | 'unknown'; pid?: number };

/** Whether the process recorded as the lock's holder still runs on this host. */
async function ownerState(ownerFile: string): Promise<OwnerState> {
  let owner: { pid: number; host: string };
  try {
    owner = JSON.parse(await readFile(ownerFile, 'utf8'));
  } catch {
    return { state: 'unknown' };
  }
  if (owner.host !== hostname()) return { state: 'unknown' };
  try {
    process.kill(owner.pid, 0);
    return { state: 'alive', pid: owner.pid };
  } catch (err) {
    return { state: (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'dead', pid: owner.pid };
  }
}

/**
 * PGlite is a single-process database: two processes on one data directory silently lose writes.
 * proper-lockfile keeps a lock directory whose mtime it refreshes; the holder's pid is written beside it.
 * A live holder is refused at once; a dead holder's lock (SIGKILL, power loss) is removed, so a restart needs
 * no clean-up. The stale threshold is long because PGlite runs in the main thread and a big transaction can
 * hold up the mtime refresh; it only matters when the holder is unknown (another host, no owner file).
 */
export async function lockDataDir(
  dataDir: string,
  opts: { staleMs?: number; waitMs?: number; onCompromised?: (err: Error) => void } = {},
): Promise<() => Promise<void>> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const lockPath = path.join(dir, 'yueman.lock');
  const ownerFile = `${lockPath}.owner.json`;
  const staleMs = opts.staleMs ?? 60_000;
  const attempt = (waitMs: number) =>
    lockfile.lock(dir, {
      lockfilePath: lockPath,
      stale: staleMs,
      update: Math.floor(staleMs / 4),
      retries: waitMs > 0 ? { retries: Math.ceil(waitMs / 500), minTimeout: 500, maxTimeout: 500 } : 0,
      onCompromised:
        opts.onCompromised ??
        ((err) => {
          throw err;
        }),
    });
  const refuse = (pid?: number) =>
    new DataDirLockedError(
      `The data directory ${dir} is in use by another Yueman process${pid ? ` (pid ${pid})` : ''}. ` +
        'The embedded database (PGlite) allows one process only: stop the other one, ' +
        'give this one its own DATA_DIR, or use DATABASE_URL.',
    );
  const locked = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ELOCKED';

  let release: () => Promise<void>;
  try {
    release = await attempt(0);
  } catch (err) {
    if (!locked(err)) throw err;
    const owner = await ownerState(ownerFile);
    if (owner.state === 'alive') throw refuse(owner.pid);
    if (owner.state === 'dead') await rm(lockPath, { recursive: true, force: true });
    try {
      release = await attempt(opts.waitMs ?? 0);
    } catch (again) {
      if (locked(again)) throw refuse((await ownerState(ownerFile)).pid);
      throw again;
    }
  }
  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, host: hostname() }));
  return async () => {
    await rm(ownerFile, { force: true });
    await release();
  };
}
