import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '../../shared/image-limits.ts';
import { imageType, originalKey, type StoragePort, variantKey } from '../storage/index.ts';

// libvips keeps the results of recent operations (50 MB by default) in case the same one is asked again: every
// resize here reads its source once and is then kept in the store and in memory-cache.ts, so that memory would only
// sit in the process (docs/operations.md, "Memory").
sharp.cache(false);

export const WEBP_QUALITY = 78;
/** libwebp effort 0-6: 2 is about a third faster than the default 4 (a 1000x3750 page: ~350 ms, not
 * ~520 ms) for about 4% more bytes; below 2 the files grow by a quarter. */
const WEBP_EFFORT = 2;

export interface ImageLog {
  warn(obj: object, msg: string): void;
}

/** What the image host asks of the storage port (read when each call is made, ctx.ports.storage). */
export type ImageStorage = Pick<StoragePort, 'get' | 'head' | 'read' | 'put'>;

export interface ImageStoreOptions {
  storage: ImageStorage;
  draw?: (path: string) => Promise<Buffer | null>;
  log?: ImageLog;
  /** sharp jobs (drawing, resizing) at once; each already uses libvips' own threads. */
  concurrency?: number;
  /** One resize took `seconds` (the metrics). */
  onResized?: (seconds: number) => void;
}

/** A variant made now: its bytes, its ETag, and whether it is in the store (else only in this answer). */
export interface MadeVariant {
  bytes: Buffer;
  etag: string;
  stored: boolean;
}

export interface ImageStore {
  /**
   * Resizes the original of `imagePath` (drawing it first when there is none and the drawer has it) to `width`
   * and keeps the WebP in the store, where every server finds it. Null: no usable source.
   */
  make(imagePath: string, width: number): Promise<MadeVariant | null>;
  readonly stats: { resizes: number };
}

/**
 * Callers must already have checked `imagePath` (parseImageUrl) and looked for the variant in the store.
 * Concurrent calls for one source share one read or drawing; the host shares one `make` per path and width.
 */
export function createImageStore(opts: ImageStoreOptions): ImageStore {
  const { storage } = opts;
  // A burst of first requests queues (first come, first served) instead of thrashing the cores.
  const limit = pLimit(opts.concurrency ?? Math.max(1, Math.min(4, availableParallelism())));
  const sources = new Map<string, Promise<Buffer | null>>();
  const stats = { resizes: 0 };

  async function findSource(imagePath: string): Promise<Buffer | null> {
    const key = originalKey(imagePath);
    const stored = await storage.read(key);
    if (stored) return stored;
    const draw = opts.draw;
    if (!draw) return null;
    const drawn = await limit(() => draw(imagePath));
    if (!drawn) return null;
    // Keep the drawing as an original, so other widths, later runs and other servers do not draw it again.
    await storage
      .put(key, drawn, imageType(imagePath))
      .catch((err) => opts.log?.warn({ err, path: imagePath }, 'could not keep a drawn image'));
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

  async function make(imagePath: string, width: number): Promise<MadeVariant | null> {
    const input = await source(imagePath);
    if (!input) return null;
    let bytes: Buffer;
    try {
      bytes = await limit(async () => {
        stats.resizes++;
        const started = performance.now();
        // A source over the pixel limit (stored before uploads were checked, or put in the store by hand) is
        // refused by libvips from its header, before it is decoded: the reader gets the missing-image answer.
        const out = await sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS })
          .autoOrient()
          .resize({ width })
          .webp({ quality: WEBP_QUALITY, effort: WEBP_EFFORT })
          .toBuffer();
        opts.onResized?.((performance.now() - started) / 1000);
        return out;
      });
    } catch (err) {
      // A broken source file is the operator's problem; the reader gets the missing-image answer.
      opts.log?.warn({ err, path: imagePath }, 'could not resize an image');
      return null;
    }
    try {
      const { etag } = await storage.put(variantKey(imagePath, width), bytes, 'image/webp');
      return { bytes, etag, stored: true };
    } catch (err) {
      opts.log?.warn({ err, path: imagePath, width }, 'could not cache an image');
      // Served from memory this time; the ETag of the bytes, as S3 would make it.
      return { bytes, etag: `"${createHash('md5').update(bytes).digest('hex')}"`, stored: false };
    }
  }

  return { make, stats };
}
