import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { fail } from '../../shared/envelope.ts';
import type { MeasuredCache } from '../../shared/memory-account.ts';
import { variantKey } from '../storage/index.ts';
import { encryptCover } from './cover-crypto.ts';
import { createImageStore, type ImageLog, type ImageStorage } from './image-store.ts';
import {
  type ImageRequest,
  isCoverPath,
  isPagePath,
  type ParsedImageUrl,
  parseImageUrl,
} from './image-url.ts';
import { type Answer, createAnswerCache } from './memory-cache.ts';
import type { PageGrants } from './page-grant.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const MISSING_MESSAGE = '图片不存在';
export const DENIED_MESSAGE = '请购买本章节后阅读';

/** The image host's lookups ('memory': answers kept in this process; 'store': resized variants) and resizes. */
export interface ImageMetrics {
  cache(tier: 'memory' | 'store', outcome: 'hit' | 'miss'): void;
  resized(seconds: number): void;
}

export interface ImageHostOptions {
  /** Originals and resized variants (the storage port: a directory or an S3 bucket). */
  storage: ImageStorage;
  /** AES-256-GCM key for covers, 32 bytes. */
  coverKey: Buffer;
  /** Makes a source picture for a path that has no file (the demo drawer); null when it has none. */
  draw?: (path: string) => Promise<Buffer | null>;
  log?: ImageLog;
  /** Checks the grants on priced pages; without it every granted URL is refused. */
  grants?: PageGrants;
  /**
   * True when a page path belongs to a free chapter, so it is served without a grant. Without it, or when it
   * answers false, a page without a valid grant answers 403: access is denied unless the database says free.
   */
  isFreePage?: (path: string) => Promise<boolean>;
  /** Without waiting: true when a page is already known free (cachedFreePages.knownFree): no database call. */
  knownFreePage?: (path: string) => boolean;
  /** Bytes of answers kept in memory (default 64 MB), and the largest one kept (default 512 KB). */
  memoryBytes?: number;
  memoryItemBytes?: number;
  concurrency?: number;
  metrics?: ImageMetrics;
}

export type { ImageRequest } from './image-url.ts';

export interface ImageHost {
  parse(urlPath: string): ParsedImageUrl;
  /**
   * Sends the answer and resolves once it is written (it returns the reply, a thenable, from an async
   * function). So an async route may `return host.handle(...)` or `await` it: resolving earlier would let
   * Fastify, finding `undefined` while an async onSend hook (compress) or a stream is still writing,
   * send a second time.
   */
  handle(request: FastifyRequest, reply: FastifyReply, parsed: ImageRequest): Promise<void>;
  /** parse + handle for a catch-all route: false when the URL is not an image URL (nothing sent). */
  serve(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /**
   * The plain WebP of an image at `width` for the operators' console (a cover unencrypted, a priced page without a
   * grant: the caller has checked the operator), or null when the path is not allowed or there is no such image.
   */
  preview(imagePath: string, width: number): Promise<Buffer | null>;
  readonly stats: { resizes: number };
  /** Its in-memory caches, each bounded by bytes, for /metrics (shared/memory-account.ts). */
  readonly memory: Record<'images' | 'image_urls', MeasuredCache>;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/` prefixes are ignored. */
function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Bytes of parsed image URLs remembered (about 40,000 page URLs of the demo library's length). */
const URL_MEMO_BYTES = 8 * 1024 * 1024;

/** What parseImageUrl checks paths against: storage keys, never files, but the same rule as under a directory. */
const PATH_ROOT = '/originals';

export function createImageHost(opts: ImageHostOptions): ImageHost {
  const { storage, metrics } = opts;
  const store = createImageStore({ ...opts, onResized: metrics?.resized });
  const itemBytes = opts.memoryItemBytes ?? 512 * 1024;
  const memoryBytes = opts.memoryBytes ?? 64 * 1024 * 1024;
  const memo = createAnswerCache({ totalBytes: memoryBytes, itemBytes });
  const loading = new Map<string, Promise<Answer | null>>();

  const headersOf = (cover: boolean, etag: string) => ({
    'content-type': cover ? 'text/plain; charset=utf-8' : 'image/webp',
    'cache-control': IMMUTABLE,
    etag,
  });

  /** An answer from the variant's bytes: a cover is encrypted once per load (random IV, fixed plaintext and ETag). */
  function keep(key: string, storeKey: string, cover: boolean, webp: Buffer, etag: string, stored: boolean) {
    const body = cover ? Buffer.from(encryptCover(webp, opts.coverKey)) : webp;
    const answer: Answer = { headers: headersOf(cover, etag), etag, body, storeKey };
    // The store holds the plain WebP: a cover's encrypted text exists only in memory.
    memo.set(key, answer, stored && !cover);
    return answer;
  }

  /**
   * The variant from the store, where any server may have made it; else made now and put there. Its ETag is the
   * store's, the same on every server that shares the store.
   */
  async function load(key: string, { path, width }: ImageRequest): Promise<Answer | null> {
    const storeKey = variantKey(path, width);
    const cover = isCoverPath(path);
    const found = await storage.head(storeKey);
    metrics?.cache('store', found ? 'hit' : 'miss');
    if (found && !cover && found.size > itemBytes) {
      // Too large to keep in memory: every request streams it from the store.
      const answer: Answer = { headers: headersOf(false, found.etag), etag: found.etag, storeKey };
      memo.set(key, answer, true);
      return answer;
    }
    // Small (or a cover, answered as text): read whole and kept in memory.
    const bytes = found ? await storage.read(storeKey) : null;
    if (found && bytes) return keep(key, storeKey, cover, bytes, found.etag, true);
    const made = await store.make(path, width);
    if (!made) return null;
    return keep(key, storeKey, cover, made.bytes, made.etag, made.stored);
  }

  function answerFor(key: string, parsed: ImageRequest): Promise<Answer | null> {
    let pending = loading.get(key);
    if (!pending) {
      pending = load(key, parsed).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }

  function missing(reply: FastifyReply, imagePath: string): FastifyReply {
    reply.header('cache-control', 'no-cache');
    // A missing cover is not an error: the web app shows its placeholder.
    if (isCoverPath(imagePath)) return reply.code(204).send();
    return reply.code(404).send(fail(404, MISSING_MESSAGE));
  }

  /**
   * Who may have this image, decided before any cache is looked at: the Cache-Control of a granted page (kept no
   * longer than its grant), IMMUTABLE for open images, or null when it must be refused. What needs no database is
   * decided by `accessKnown`; a page without a grant then asks whether it is free.
   */
  async function access(parsed: ImageRequest): Promise<string | null> {
    const known = accessKnown(parsed);
    if (known !== undefined) return known;
    return (await opts.isFreePage?.(parsed.path)) ? IMMUTABLE : null;
  }

  /** Resolves when the reply is written: an async function that returns the reply adopts its `then`. */
  async function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    parsed: ImageRequest,
  ): Promise<FastifyReply> {
    const cacheControl = await access(parsed);
    if (cacheControl === null) {
      return reply.code(403).header('cache-control', 'no-store').send(fail(403, DENIED_MESSAGE));
    }
    const key = `${parsed.width}/${parsed.path}`;
    const kept = memo.get(key);
    metrics?.cache('memory', kept ? 'hit' : 'miss');
    let answer = kept ?? (await answerFor(key, parsed));
    if (!answer) return missing(reply, parsed.path);
    if (notModified(request.headers['if-none-match'], answer.etag)) {
      return reply.code(304).headers({ etag: answer.etag, 'cache-control': cacheControl }).send();
    }
    const sendWith = (a: Answer) => reply.headers(a.headers).header('cache-control', cacheControl);
    // A large variant streams from the store, never read whole; if it went away (an operator cleaned the store),
    // it is made again.
    for (let attempt = 0; !answer.body; attempt++) {
      const found = await storage.get(answer.storeKey);
      if (found) return sendWith(answer).header('content-length', found.size).send(found.body);
      memo.delete(key);
      answer = attempt === 0 ? await answerFor(key, parsed) : null;
      if (!answer) return missing(reply, parsed.path);
    }
    return sendWith(answer).send(answer.body);
  }

  /** Who may have it, decided without waiting: a Cache-Control, null (refused), or undefined (ask the database). */
  function accessKnown({ path, grant }: ImageRequest): string | null | undefined {
    if (grant) {
      if (!opts.grants?.verify(grant, path)) return null;
      return `public, max-age=${opts.grants.secondsLeft(grant.expiry)}, immutable`;
    }
    if (!isPagePath(path)) return IMMUTABLE;
    return opts.knownFreePage?.(path) ? IMMUTABLE : undefined;
  }

  async function handle(request: FastifyRequest, reply: FastifyReply, parsed: ImageRequest): Promise<void> {
    await respond(request, reply, parsed);
  }

  // Readers ask for the same few thousand URLs over and over: remember the good ones (refused URLs are not
  // kept, so junk cannot push them out).
  const parsedUrls = new LRUCache<string, ImageRequest>({
    maxSize: URL_MEMO_BYTES,
    // The URL and the path as UTF-16 strings, and the parsed object.
    sizeCalculation: (parsed, url) => (url.length + parsed.path.length) * 2 + 160,
  });
  function parse(urlPath: string): ParsedImageUrl {
    const known = parsedUrls.get(urlPath);
    if (known) return known;
    const parsed = parseImageUrl(urlPath, PATH_ROOT);
    if (parsed && !('error' in parsed)) parsedUrls.set(urlPath, parsed);
    return parsed;
  }

  async function serve(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const parsed = parse(request.url);
    if (parsed === null) return false;
    if ('error' in parsed) await reply.code(400).send(fail(400, parsed.error));
    else await handle(request, reply, parsed);
    return true;
  }

  async function preview(imagePath: string, width: number): Promise<Buffer | null> {
    const parsed = parse(`/${encodeURIComponent(imagePath).replaceAll('%2F', '/')}_${width}_0.img`);
    if (parsed === null || 'error' in parsed || parsed.grant) return null;
    const stored = await storage.read(variantKey(parsed.path, parsed.width));
    return stored ?? (await store.make(parsed.path, parsed.width))?.bytes ?? null;
  }

  const memory = {
    images: { bytes: memo.bytes, limitBytes: Math.max(0, memoryBytes) },
    image_urls: { bytes: () => parsedUrls.calculatedSize, limitBytes: URL_MEMO_BYTES },
  };
  return { parse, handle, serve, preview, stats: store.stats, memory };
}
