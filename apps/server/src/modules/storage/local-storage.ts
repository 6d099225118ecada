import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ORIGINALS, type StoragePort, type StoredInfo, VARIANTS } from './storage.port.ts';

export interface LocalStorageOptions {
  /** Where `originals/…` live (IMAGE_ROOT). */
  originals: string;
  /** Where `variants/…` live (IMAGE_CACHE_DIR). */
  variants: string;
  /**
   * Whether originals are written (the demo drawer keeps its drawings there): the directory is then made when
   * missing and must be writable. Otherwise it need only be readable, and may be a read-only mount.
   */
  writesOriginals?: boolean;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

const statOf = (file: string) => stat(file, { bigint: true });
/**
 * The ETag of a file is its size and modification time (as nginx makes it): no second read of the file to hash it,
 * the same after restarts and for every server reading the same directory, changed by every write.
 */
const infoOf = (s: Awaited<ReturnType<typeof statOf>>): StoredInfo => ({
  size: Number(s.size),
  etag: `"${s.size.toString(36)}-${s.mtimeNs.toString(36)}"`,
});

/** Readers never see half a file: write beside it, then rename over it. */
async function writeAtomic(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** The store on disk: `originals/<path>` is `<originals>/<path>`, `variants/<rest>` is `<variants>/<rest>`. */
export function createLocalStorage(opts: LocalStorageOptions): StoragePort {
  const dirs = new Map([
    [ORIGINALS, path.resolve(opts.originals)],
    [VARIANTS, path.resolve(opts.variants)],
  ]);

  function fileOf(key: string): string {
    const slash = key.indexOf('/');
    const dir = dirs.get(key.slice(0, slash));
    const file = dir && path.resolve(dir, key.slice(slash + 1));
    // The image host only makes keys of checked paths; anything else is a bug, never a file outside.
    if (slash < 0 || !dir || !file?.startsWith(dir + path.sep)) throw new Error(`not a storage key: ${key}`);
    return file;
  }

  async function head(key: string): Promise<StoredInfo | null> {
    try {
      const s = await statOf(fileOf(key));
      return s.isFile() ? infoOf(s) : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    head,
    async get(key) {
      const file = await open(fileOf(key)).catch((err) => {
        if (isMissing(err)) return null;
        throw err;
      });
      if (!file) return null;
      try {
        const s = await file.stat({ bigint: true });
        if (!s.isFile()) {
          await file.close();
          return null;
        }
        // The stream closes the file when it ends or is destroyed (a reader that went away).
        return { ...infoOf(s), body: file.createReadStream() };
      } catch (err) {
        await file.close().catch(() => undefined);
        throw err;
      }
    },
    async read(key) {
      try {
        return await readFile(fileOf(key));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async put(key, body) {
      const file = fileOf(key);
      await writeAtomic(file, body);
      return infoOf(await statOf(file));
    },
    async ready() {
      const variants = dirs.get(VARIANTS) as string;
      const originals = dirs.get(ORIGINALS) as string;
      await mkdir(variants, { recursive: true, mode: 0o700 });
      await access(variants, constants.R_OK | constants.W_OK | constants.X_OK);
      if (opts.writesOriginals) {
        await mkdir(originals, { recursive: true, mode: 0o700 });
        await access(originals, constants.R_OK | constants.W_OK | constants.X_OK);
      } else {
        await access(originals, constants.R_OK | constants.X_OK);
      }
    },
  };
}
