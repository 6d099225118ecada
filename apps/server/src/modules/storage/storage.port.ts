import type { Readable } from 'node:stream';

/** What the store knows of an object without reading it. */
export interface StoredInfo {
  size: number;
  /** A strong ETag (quoted), the same on every server that reads the same store, changed by every new write. */
  etag: string;
}

/** An object being read: its bytes as a stream, never read whole by the store. */
export interface StoredObject extends StoredInfo {
  body: Readable;
}

/**
 * Where page and cover images live, on disk or in an S3 bucket (STORAGE): the originals and their resized variants,
 * under the keys below. Every server that shares a store sees what the others wrote.
 */
export interface StoragePort {
  /** The object under `key` as a stream with its size and ETag; null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Its size and ETag without its bytes; null when there is none. */
  head(key: string): Promise<StoredInfo | null>;
  /** Its bytes, read whole (for what is read whole anyway: a source to resize, a small variant); null when none. */
  read(key: string): Promise<Buffer | null>;
  /** Writes `body` under `key`, replacing any object there; a reader sees the old object or the new, never half. */
  put(key: string, body: Buffer, contentType?: string): Promise<StoredInfo>;
  /** Resolves when the store can be read and written (local: the directories; S3: HeadBucket); else throws. */
  ready(): Promise<void>;
}

/** The storage port, and the one way to add an original image (imports, uploaded covers and ads). */
export interface StorageModulePort extends StoragePort {
  /** Stores `bytes` as the original of the image path `imagePath` (e.g. `covers/uploads/3/ab12.png`). */
  putOriginal(imagePath: string, bytes: Buffer): Promise<StoredInfo>;
}

/** The two kinds of object, each under its prefix: the directory it maps to on disk, a key prefix in a bucket. */
export const ORIGINALS = 'originals';
export const VARIANTS = 'variants';

/** A source image, as an image URL names it (`pages/…/1.png`). */
export const originalKey = (imagePath: string): string => `${ORIGINALS}/${imagePath}`;
/** The WebP of `imagePath` at `width`. */
export const variantKey = (imagePath: string, width: number): string =>
  `${VARIANTS}/${width}/${imagePath}.webp`;

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

/** The media type of an image key by its extension. */
export function imageType(key: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(key)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}
