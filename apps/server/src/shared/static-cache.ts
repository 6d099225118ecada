import type { FastifyInstance, FastifyReply, onRequestHookHandler, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { etagMatches, STATIC_CACHE_CONTROL, type StaticAnswers } from './static-answers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    staticCache?: boolean;
  }
}

/** Addresses whose answers are personal or one-off: the API, the pay apply page and the sandbox gateway's pages. */
const NO_STORE_PREFIXES = ['/api/', '/h5/', '/sandbox-pay/'];

/**
 * The one caching rule of the server's own answers. Static routes (`config: { staticCache: true }`) get a strong
 * ETag, 304 on a match and their answers kept in `answers`; every other route under NO_STORE_PREFIXES gets
 * `no-store`. (The web app's files and the images set their own long-lived headers; error answers are no-store.) Hooks are attached per
 * route in onRoute and are callback-style, so other routes carry none of this and a hit costs no promise.
 * Register before @fastify/compress: kept answers carry their own compressed copies, so static routes opt
 * out of its hooks.
 */
export default fp(
  async (app: FastifyInstance, opts: { answers: StaticAnswers }) => {
    const { answers } = opts;
    const fromCache = new WeakSet<FastifyReply>();

    // A kept answer is sent here, before routing's later hooks read a body or the database: an ordinary Fastify
    // answer, so the protective headers (set by an earlier onRequest hook), the metrics' onResponse and the access
    // log see it as they see every other.
    const serveKept: onRequestHookHandler = (request, reply, done) => {
      const answer = answers.lookup(request.method, request.url);
      if (!answer) return done();
      fromCache.add(reply);
      reply
        .header('ETag', answer.etag)
        .header('Cache-Control', STATIC_CACHE_CONTROL)
        .header('Vary', 'Accept-Encoding');
      if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
      const { body, encoding } = answers.encode(
        request.method,
        request.url,
        answer,
        request.headers['accept-encoding'],
      );
      if (encoding) reply.header('Content-Encoding', encoding);
      reply.type('application/json; charset=utf-8').send(body);
    };

    const keepAnswer: onSendHookHandler = (request, reply, payload, done) => {
      if (fromCache.has(reply) || reply.statusCode !== 200 || typeof payload !== 'string') {
        return done(null, payload);
      }
      const answer = answers.keep(request.method, request.url, payload);
      reply
        .header('ETag', answer.etag)
        .header('Cache-Control', STATIC_CACHE_CONTROL)
        .header('Vary', 'Accept-Encoding');
      if (etagMatches(request.headers['if-none-match'], answer.etag)) {
        reply.code(304);
        return done(null, '');
      }
      // The same bytes as every later answer from the kept copy (and from any other server): compressed as the
      // request accepts, by the same rule.
      const { body, encoding } = answers.encode(
        request.method,
        request.url,
        answer,
        request.headers['accept-encoding'],
      );
      if (!encoding) return done(null, payload);
      reply.header('Content-Encoding', encoding);
      done(null, body);
    };

    const noStore: onRequestHookHandler = (_request, reply, done) => {
      reply.header('Cache-Control', 'no-store');
      done();
    };

    const append = <T>(existing: T | T[] | undefined, hook: T): T[] =>
      existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];

    app.addHook('onRoute', (route) => {
      if (route.config?.staticCache) {
        route.compress = false;
        route.onRequest = append(route.onRequest, serveKept);
        route.onSend = append(route.onSend, keepAnswer);
      } else if (NO_STORE_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
        // Dynamic calls are personal: no shared cache may keep them (docs/api.md section 1).
        route.onRequest = append(route.onRequest, noStore);
      }
    });
  },
  { name: 'static-cache' },
);
