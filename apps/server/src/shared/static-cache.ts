import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Static calls (spec section 7) are the same for every reader. Each answer is kept for a few seconds,
 * with its strong ETag and compressed copies, so a busy list page costs one query per `ttlMs` instead of
 * one per request, and 304 answers cost nothing. Routes opt in with `config: { staticCache: true }`.
 */
export const STATIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

interface Entry {
  body: Buffer;
  etag: string;
  expires: number;
  br?: Buffer;
  gzip?: Buffer;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    staticCache?: boolean;
  }
}

const MIN_COMPRESS_BYTES = 1024;

function pickEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const accept = request.headers['accept-encoding'] ?? '';
  if (accept.includes('br')) return 'br';
  if (accept.includes('gzip')) return 'gzip';
  return null;
}

function matches(request: FastifyRequest, etag: string) {
  const inm = request.headers['if-none-match'];
  return inm?.split(',').some((t) => t.trim() === etag || t.trim() === '*') ?? false;
}

function sendEntry(request: FastifyRequest, reply: FastifyReply, entry: Entry) {
  reply
    .header('ETag', entry.etag)
    .header('Cache-Control', STATIC_CACHE_CONTROL)
    .header('Vary', 'Accept-Encoding');
  if (matches(request, entry.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = entry.body.length >= MIN_COMPRESS_BYTES ? pickEncoding(request) : null;
  if (encoding === 'br') {
    entry.br ??= brotliCompressSync(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('Content-Encoding', 'br').send(entry.br);
  }
  if (encoding === 'gzip') {
    entry.gzip ??= gzipSync(entry.body, { level: 6 });
    return reply.header('Content-Encoding', 'gzip').send(entry.gzip);
  }
  return reply.send(entry.body);
}

export default fp(
  async (app: FastifyInstance, opts: { ttlMs: number; maxEntries?: number }) => {
    const cache = new Map<string, Entry>();
    const maxEntries = opts.maxEntries ?? 5000;
    const fromCache = new WeakSet<FastifyReply>();

    app.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.config.staticCache || (request.method !== 'GET' && request.method !== 'POST'))
        return;
      const entry = cache.get(request.url);
      if (!entry || entry.expires < Date.now()) return;
      fromCache.add(reply);
      return sendEntry(request, reply, entry);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.routeOptions.config.staticCache || fromCache.has(reply)) return payload;
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const body = Buffer.from(payload);
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      if (opts.ttlMs > 0) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
        cache.set(request.url, { body, etag, expires: Date.now() + opts.ttlMs });
      }
      reply
        .header('ETag', etag)
        .header('Cache-Control', STATIC_CACHE_CONTROL)
        .header('Vary', 'Accept-Encoding');
      if (matches(request, etag)) {
        reply.code(304);
        return '';
      }
      return payload;
    });
  },
  { name: 'static-cache' },
);
