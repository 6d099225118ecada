import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import sharp from 'sharp';

export const WEBP_QUALITY = 78;
/** libwebp effort 0-6: 2 is about a third faster than the default 4 (a 1000x3750 page: ~350 ms, not
 * ~520 ms) for about 4% more bytes; below 2 the files grow by a quarter. */
const WEBP_EFFORT = 2;

export interface ImageLog {
  warn(obj: object, msg: string): void;
}

export interface ImageStoreOptions {
  imageRoot: string;
  cacheDir: string;
  draw?: (path: string) => Promise<Buffer | null>;
  log?: ImageLog;
  /** sharp jobs (drawing, resizing) at once; each already uses libvips' own threads. */
  concurrency?: number;
}

export interface ImageStore {
  /** The WebP bytes of `path` at `width`: from the disk cache, or made and kept there. Null: no source. */
  webp(imagePath: string, width: number): Promise<Buffer | null>;
  cacheFile(imagePath: string, width: number): string;
  readonly stats: { resizes: number };
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export async function readIfPresent(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

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

/**
 * Callers must already have checked `imagePath` (parseImageUrl). Concurrent calls for one source share
 * one read or drawing; the host shares one `webp` call per path and width.
 */
export function createImageStore(opts: ImageStoreOptions): ImageStore {
  const root = path.resolve(opts.imageRoot);
  const cacheDir = path.resolve(opts.cacheDir);
  // A burst of first requests queues (first come, first served) instead of thrashing the cores.
  const limit = pLimit(opts.concurrency ?? Math.max(1, Math.min(4, availableParallelism())));
  const sources = new Map<string, Promise<Buffer | null>>();
  const stats = { resizes: 0 };

  async function findSource(imagePath: string): Promise<Buffer | null> {
    const file = path.join(root, imagePath);
    const stored = await readIfPresent(file);
    if (stored) return stored;
    const draw = opts.draw;
    if (!draw) return null;
    const drawn = await limit(() => draw(imagePath));
    if (!drawn) return null;
    // Keep the drawing as the source, so other widths and later runs do not draw it again.
    await writeAtomic(file, drawn).catch((err) =>
      opts.log?.warn({ err, path: imagePath }, 'could not keep a drawn image'),
    );
    return drawn;
  }

  function source(imagePath: string): Promise<Buffer | null> {
    let pending = sources.get(imagePath);
    if (!pending) {
      pending = findSource(imagePath).finally(() => sources.delete(imagePath));
      sources.set(imagePath, pending);
    }
    return pending;
  }

  const cacheFile = (imagePath: string, width: number) =>
    path.join(cacheDir, String(width), `${imagePath}.webp`);

  async function webp(imagePath: string, width: number): Promise<Buffer | null> {
    const file = cacheFile(imagePath, width);
    const cached = await readIfPresent(file);
    if (cached) return cached;
    const input = await source(imagePath);
    if (!input) return null;
    let out: Buffer;
    try {
      out = await limit(() => {
        stats.resizes++;
        return sharp(input)
          .autoOrient()
          .resize({ width })
          .webp({ quality: WEBP_QUALITY, effort: WEBP_EFFORT })
          .toBuffer();
      });
    } catch (err) {
      // A broken source file is the operator's problem; the reader gets the missing-image answer.
      opts.log?.warn({ err, path: imagePath }, 'could not resize an image');
      return null;
    }
    await writeAtomic(file, out).catch((err) =>
      opts.log?.warn({ err, path: imagePath, width }, 'could not cache an image'),
    );
    return out;
  }

  return { webp, cacheFile, stats };
}
