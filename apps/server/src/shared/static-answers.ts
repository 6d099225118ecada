import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/**
 * Static calls (spec section 7) are the same for every reader. Each answer is kept for `ttlMs`, with its
 * strong ETag and compressed copies made once, so a busy list costs one query per `ttlMs` and a 304 costs
 * nothing. Readers see a change within ttlMs plus the 60 s HTTP max-age. Kept answers are sent by an ordinary
 * Fastify onRequest hook (static-cache.ts), so they pass the same headers, metrics and access log as any answer.
 */
export const STATIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';
const MIN_COMPRESS_BYTES = 1024;

export interface StaticAnswer {
  body: Buffer;
  etag: string;
  expires: number;
  br?: Buffer;
  gzip?: Buffer;
}

/** The key and bookkeeping of a kept answer, counted beside its bodies. */
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
  readonly maxBytes: number;

  constructor(
    private readonly opts: {
      ttlMs: number;
      /** Bytes of answers kept (STATIC_CACHE_MB's share, app.ts); 24 MB by default. */
      maxBytes?: number;
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

  /** Forgets every kept answer: a change was made here (the console), and this server shows it at once. */
  clear(): void {
    this.answers.clear();
  }
}
