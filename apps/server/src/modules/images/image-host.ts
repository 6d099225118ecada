import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { fail } from '../../shared/envelope.ts';
import { encryptCover } from './cover-crypto.ts';
import { createImageStore, type ImageLog } from './image-store.ts';
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

export interface ImageHostOptions {
  imageRoot: string;
  cacheDir: string;
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
  /** Bytes of answers kept in memory (default 64 MB), and the largest one kept (default 512 KB). */
  memoryBytes?: number;
  memoryItemBytes?: number;
  concurrency?: number;
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
  readonly stats: { resizes: number };
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

export function createImageHost(opts: ImageHostOptions): ImageHost {
  const store = createImageStore(opts);
  const memo = createAnswerCache({
    totalBytes: opts.memoryBytes ?? 64 * 1024 * 1024,
    itemBytes: opts.memoryItemBytes ?? 512 * 1024,
  });
  const loading = new Map<string, Promise<Answer | null>>();

  async function load(key: string, { path, width }: ImageRequest): Promise<Answer | null> {
    const webp = await store.webp(path, width);
    if (!webp) return null;
    const cover = isCoverPath(path);
    // Hashing the bytes once gives the same ETag on every server and after restarts.
    const etag = `"${createHash('sha1').update(webp).digest('base64url').slice(0, 22)}"`;
    // A cover is encrypted once per load; its IV is random, its plaintext (and so its ETag) fixed.
    const body = cover ? Buffer.from(encryptCover(webp, opts.coverKey)) : webp;
    const headers = {
      'content-type': cover ? 'text/plain; charset=utf-8' : 'image/webp',
      'cache-control': IMMUTABLE,
      etag,
    };
    const answer: Answer = { headers, etag, body, file: store.cacheFile(path, width) };
    // The file holds the plain WebP: a cover's encrypted text exists only in memory.
    memo.set(key, answer, !cover);
    return answer;
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
   * longer than its grant), IMMUTABLE for open images, or null when it must be refused.
   */
  async function access({ path, grant }: ImageRequest): Promise<string | null> {
    if (grant) {
      if (!opts.grants?.verify(grant, path)) return null;
      return `public, max-age=${opts.grants.secondsLeft(grant.expiry)}, immutable`;
    }
    if (!isPagePath(path)) return IMMUTABLE;
    return (await opts.isFreePage?.(path)) ? IMMUTABLE : null;
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
    let answer = memo.get(key) ?? (await answerFor(key, parsed));
    if (!answer) return missing(reply, parsed.path);
    if (notModified(request.headers['if-none-match'], answer.etag)) {
      return reply.code(304).headers({ etag: answer.etag, 'cache-control': cacheControl }).send();
    }
    const sendWith = (a: Answer) => reply.headers(a.headers).header('cache-control', cacheControl);
    if (!answer.body) {
      const file = await open(answer.file).catch(() => undefined);
      const size = await file?.stat().then(
        (s) => s.size,
        () => file?.close().then(() => undefined),
      );
      if (file && size !== undefined) {
        return sendWith(answer).header('content-length', size).send(file.createReadStream());
      }
      // The cache file went away (an operator cleaned the cache): make it again.
      memo.delete(key);
      answer = await answerFor(key, parsed);
      if (!answer) return missing(reply, parsed.path);
    }
    return sendWith(answer).send(answer.body);
  }

  async function handle(request: FastifyRequest, reply: FastifyReply, parsed: ImageRequest): Promise<void> {
    await respond(request, reply, parsed);
  }

  // Readers ask for the same few thousand URLs over and over: remember the good ones (refused URLs are not
  // kept, so junk cannot push them out).
  const parsedUrls = new LRUCache<string, ImageRequest>({ max: 50_000 });
  function parse(urlPath: string): ParsedImageUrl {
    const known = parsedUrls.get(urlPath);
    if (known) return known;
    const parsed = parseImageUrl(urlPath, opts.imageRoot);
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

  return { parse, handle, serve, stats: store.stats };
}
