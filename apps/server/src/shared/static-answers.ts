import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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
  private readonly answers = new Map<string, StaticAnswer>();

  constructor(private readonly opts: { ttlMs: number; maxEntries?: number }) {}

  lookup(method: string | undefined, url: string | undefined): StaticAnswer | undefined {
    const answer = this.answers.get(`${method} ${url}`);
    return answer && answer.expires >= Date.now() ? answer : undefined;
  }

  keep(method: string, url: string, payload: string): StaticAnswer {
    const body = Buffer.from(payload);
    const answer = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, expires: 0 };
    if (this.opts.ttlMs > 0) {
      answer.expires = Date.now() + this.opts.ttlMs;
      if (this.answers.size >= (this.opts.maxEntries ?? 5000)) {
        this.answers.delete(this.answers.keys().next().value as string);
      }
      this.answers.set(`${method} ${url}`, answer);
    }
    return answer;
  }

  /** Forgets every kept answer: a change was made here (the console), and this server shows it at once. */
  clear(): void {
    this.answers.clear();
  }
}
