import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import FindMyWay from 'find-my-way';
import { LRUCache } from 'lru-cache';
import type { FastAnswer, FastRequest, KeptCopy } from './fast-path.ts';

/**
 * Static calls (spec section 7) are the same for every reader. Each answer is kept for `ttlMs`, with its
 * strong ETag and compressed copies made once, so a busy list costs one query per `ttlMs` and a 304 costs
 * nothing. Readers see a change within ttlMs plus the 60 s HTTP max-age.
 */
export const STATIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';
const MIN_COMPRESS_BYTES = 1024;

export interface StaticAnswer {
  body: Buffer;
  etag: string;
  expires: number;
  br?: Buffer;
  gzip?: Buffer;
  /** answerRaw's header lists (name, value, name, value…) per encoding and for 304: built once per answer. */
  heads?: Partial<Record<'identity' | 'br' | 'gzip' | 'notModified', string[]>>;
  /** The front's answers (front.ts), per encoding and for 304: built once per answer. */
  fastAnswers?: Partial<Record<'identity' | 'br' | 'gzip' | 'notModified', FastAnswer>>;
}

/** The header lists, answer objects and key of a kept answer, counted beside its bodies. */
const ANSWER_OVERHEAD_BYTES = 2048;

/** The bytes a kept answer holds: its body, the compressed copies made so far and its bookkeeping. */
export const answerBytes = (answer: StaticAnswer, key = '') =>
  answer.body.length +
  (answer.br?.length ?? 0) +
  (answer.gzip?.length ?? 0) +
  key.length * 2 +
  ANSWER_OVERHEAD_BYTES;

/**
 * `encodedBody`, and when it made a compressed copy just now, `grew()`: a cache bounded by bytes counts it.
 */
export function encodedBodyCounted(
  answer: StaticAnswer,
  acceptEncoding: string | undefined,
  grew: () => void,
): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const copies = (answer.br ? 1 : 0) + (answer.gzip ? 1 : 0);
  const encoded = encodedBody(answer, acceptEncoding);
  if ((answer.br ? 1 : 0) + (answer.gzip ? 1 : 0) !== copies) grew();
  return encoded;
}

export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch?.split(',').some((t) => t.trim() === etag || t.trim() === '*') ?? false;
}

/** The bytes to send for an Accept-Encoding header, compressing on first need. */
export function encodedBody(
  answer: StaticAnswer,
  acceptEncoding = '',
): { body: Buffer; encoding?: 'br' | 'gzip' } {
  if (answer.body.length < MIN_COMPRESS_BYTES) return { body: answer.body };
  if (acceptEncoding.includes('br')) {
    answer.br ??= brotliCompressSync(answer.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    return { body: answer.br, encoding: 'br' };
  }
  if (acceptEncoding.includes('gzip')) {
    answer.gzip ??= gzipSync(answer.body, { level: 6 });
    return { body: answer.gzip, encoding: 'gzip' };
  }
  return { body: answer.body };
}

export class StaticAnswers {
  /**
   * Kept answers by `METHOD url`, bounded by bytes (bodies and compressed copies), the least recently used dropped
   * first; an answer larger than the whole bound is not kept.
   */
  private readonly answers: LRUCache<string, StaticAnswer>;
  /** The static routes' patterns (static-cache.ts adds them): which URLs a front process may ask to have kept. */
  private readonly routes = FindMyWay({ ignoreTrailingSlash: true });
  readonly maxBytes: number;

  constructor(
    private readonly opts: {
      ttlMs: number;
      /** Bytes of answers kept (STATIC_CACHE_MB's share, app.ts); 24 MB by default. */
      maxBytes?: number;
      /** The protective headers every answer carries (security-headers.ts): this path runs before Fastify's hooks. */
      headers?: Record<string, string>;
    },
  ) {
    this.maxBytes = opts.maxBytes ?? 24 * 1024 * 1024;
    this.answers = new LRUCache<string, StaticAnswer>({
      maxSize: this.maxBytes,
      sizeCalculation: answerBytes,
    });
  }

  /** The bytes kept now. */
  bytes(): number {
    return this.answers.calculatedSize;
  }

  lookup(method: string | undefined, url: string | undefined): StaticAnswer | undefined {
    const answer = this.answers.get(`${method} ${url}`);
    return answer && answer.expires >= Date.now() ? answer : undefined;
  }

  keep(method: string, url: string, payload: string): StaticAnswer {
    const body = Buffer.from(payload);
    const answer = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, expires: 0 };
    if (this.opts.ttlMs > 0) {
      answer.expires = Date.now() + this.opts.ttlMs;
      this.answers.set(`${method} ${url}`, answer);
    }
    return answer;
  }

  /**
   * The bytes to send of the answer kept for `METHOD url` (encodedBody), a compressed copy made now counted in the
   * bound: the answer is kept again under its new size.
   */
  encode(method: string | undefined, url: string | undefined, answer: StaticAnswer, acceptEncoding?: string) {
    const key = `${method} ${url}`;
    return encodedBodyCounted(answer, acceptEncoding, () => {
      if (this.answers.peek(key) !== answer) return;
      this.answers.delete(key);
      this.answers.set(key, answer);
    });
  }

  /**
   * Answers a kept static call straight from the HTTP server, before Fastify's routing, hooks and request
   * logger: at list-page rates those cost more than the answer itself (bench/README.md). Only URLs that a
   * static route answered with 200 are ever kept, so this never answers for a route that does not exist.
   * Returns false when there is nothing kept and Fastify must handle the request.
   */
  answerRaw(req: IncomingMessage, res: ServerResponse): boolean {
    const answer = this.lookup(req.method, req.url);
    if (!answer) return false;
    answer.heads ??= {};
    if (etagMatches(req.headers['if-none-match'], answer.etag)) {
      answer.heads.notModified ??= this.headList(answer);
      res.writeHead(304, answer.heads.notModified).end();
      return true;
    }
    const { body, encoding } = this.encode(req.method, req.url, answer, req.headers['accept-encoding']);
    const key = encoding ?? 'identity';
    // The same list on every hit: no header object to build (and collect) per request.
    answer.heads[key] ??= this.headList(answer, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.writeHead(200, answer.heads[key]).end(body);
    return true;
  }

  /** Forgets every kept answer: a change was made here (the console), and this server shows it at once. */
  clear(): void {
    this.answers.clear();
  }

  /** A static route's pattern (Fastify's syntax: `/api/book/new/:page`). */
  addRoute(pattern: string): void {
    if (!this.routes.hasRoute('GET', pattern)) this.routes.on('GET', pattern, () => {});
  }

  /** True when a static route answers this URL: the same for every reader, so it may be made for a front. */
  isStaticUrl(url: string): boolean {
    return this.routes.find('GET', url.split('?', 1)[0] as string) !== null;
  }

  /** The kept answer of a GET, for a front process (its own copy until the answer expires here), or undefined. */
  copyFor(req: FastRequest): KeptCopy | undefined {
    const answer = this.lookup('GET', req.url);
    if (!answer) return undefined;
    const ok = this.fast({ ...req, method: 'GET', ifNoneMatch: undefined }) as FastAnswer;
    const notModified = this.fast({ ...req, method: 'GET', ifNoneMatch: answer.etag }) as FastAnswer;
    return { ok, notModified, etag: answer.etag, weakMatch: false, until: answer.expires };
  }

  /** The front's answer (front.ts) for a kept static call, or undefined (node:http and Fastify answer). */
  fast(req: FastRequest): FastAnswer | undefined {
    const answer = this.lookup(req.method, req.url);
    if (!answer) return undefined;
    answer.fastAnswers ??= {};
    if (etagMatches(req.ifNoneMatch, answer.etag)) {
      answer.fastAnswers.notModified ??= { status: 304, headers: this.headRecord(answer) };
      return answer.fastAnswers.notModified;
    }
    const { body, encoding } = this.encode(req.method, req.url, answer, req.acceptEncoding);
    const key = encoding ?? 'identity';
    answer.fastAnswers[key] ??= {
      status: 200,
      body,
      headers: this.headRecord(answer, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
        ...(encoding ? { 'content-encoding': encoding } : {}),
      }),
    };
    return answer.fastAnswers[key];
  }

  private headRecord(answer: StaticAnswer, more: Record<string, string> = {}): Record<string, string> {
    return {
      ...this.opts.headers,
      etag: answer.etag,
      'cache-control': STATIC_CACHE_CONTROL,
      vary: 'Accept-Encoding',
      ...more,
    };
  }

  private headList(answer: StaticAnswer, more: Record<string, string> = {}): string[] {
    const headers = {
      ...this.opts.headers,
      etag: answer.etag,
      'cache-control': STATIC_CACHE_CONTROL,
      vary: 'Accept-Encoding',
      ...more,
    };
    return Object.entries(headers).flat();
  }
}
