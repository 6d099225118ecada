import { readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {}

type OwnerState = { state: 'alive' | 'dead' | 'unknown'; pid?: number };
interface Owner {
  pid: number;
  host: string;
  /** The kernel's boot id and the process's start time (clock ticks since boot): together they tell a reused pid. */
  boot?: string;
  start?: string;
  /**
   * The locked directory's device and inode: a copy of a running data directory (cp -a, rsync) carries the owner
   * file of a live holder, but it is another directory, which that holder does not hold.
   */
  dir?: string;
}

const dirIdentity = async (dir: string) => {
  const { dev, ino } = await stat(dir);
  return `${dev}:${ino}`;
};

/** Data directories this process holds: a second lock from the same process is refused, not taken over. */
const held = new Set<string>();

const readProc = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};
const bootId = () => readProc('/proc/sys/kernel/random/boot_id')?.trim();
/** Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces). */
const startTimeOf = (pid: number) => {
  const line = readProc(`/proc/${pid}/stat`);
  return line?.slice(line.lastIndexOf(')') + 2).split(' ')[19];
};

/**
 * Whether the process recorded as the lock's holder still runs on this host. A live pid is the holder only if it
 * started when the holder did: after a crash the pid may belong to another process, or (a container restarted)
 * to this very one.
 */
async function ownerState(ownerFile: string, dir: string): Promise<OwnerState> {
  let owner: Owner;
  try {
    owner = JSON.parse(await readFile(ownerFile, 'utf8'));
  } catch {
    return { state: 'unknown' };
  }
  if (owner.host !== hostname()) return { state: 'unknown' };
  // Copied with the directory: whoever holds the original does not hold this copy.
  if (owner.dir !== undefined && owner.dir !== (await dirIdentity(dir))) return { state: 'dead' };
  const pid = owner.pid;
  if (pid === process.pid) return { state: 'dead', pid };
  try {
    process.kill(pid, 0);
  } catch (err) {
    return { state: (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'dead', pid };
  }
  const reused =
    (owner.boot !== undefined && owner.boot !== bootId()) ||
    (owner.start !== undefined && owner.start !== startTimeOf(pid));
  return { state: reused ? 'dead' : 'alive', pid };
}

/**
 * The data directory holds the embedded database, the keys and the images: only this service's user may enter it.
 * Made 0700 whatever the umask; an existing one that others could write to is closed.
 */
export async function createPrivateDir(dir: string) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const mode = (await stat(dir)).mode & 0o777;
  if (mode & 0o077) await chmod(dir, mode & 0o700);
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
  await createPrivateDir(dir);
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

  if (held.has(dir)) throw refuse(process.pid);
  let release: () => Promise<void>;
  try {
    release = await attempt(0);
  } catch (err) {
    if (!locked(err)) throw err;
    const owner = await ownerState(ownerFile, dir);
    if (owner.state === 'alive') throw refuse(owner.pid);
    if (owner.state === 'dead') await rm(lockPath, { recursive: true, force: true });
    try {
      release = await attempt(opts.waitMs ?? 0);
    } catch (again) {
      if (locked(again)) throw refuse((await ownerState(ownerFile, dir)).pid);
      throw again;
    }
  }
  const owner: Owner = {
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    start: startTimeOf(process.pid),
    dir: await dirIdentity(dir),
  };
  await writeFile(ownerFile, JSON.stringify(owner), { mode: 0o600 });
  held.add(dir);
  return async () => {
    held.delete(dir);
    await rm(ownerFile, { force: true });
    await release();
  };
}
