import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin of a `Referer` header: undefined without one, 'invalid' for one that is not a URL. */
export function refererOrigin(req: FastifyRequest): string | undefined {
  const referer = req.headers.referer;
  if (typeof referer !== 'string') return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

/** The origin a browser says a request comes from: `Origin`, else the origin of `Referer`; undefined when neither. */
function claimedOrigin(req: FastifyRequest): string | undefined {
  const origin = req.headers.origin;
  return typeof origin === 'string' ? origin : refererOrigin(req);
}

/**
 * Refuses state-changing requests from other sites (docs/api.md section 2). Browsers send `Origin` on every POST (and
 * `Referer` when a policy hides it), so a foreign or `null` origin is another site's page at work: a forged form or
 * fetch riding on the reader's cookie, or logging the reader into someone else's account. It is refused (403) before
 * any route runs, whether or not it carries the session. A request with neither header is not a browser's
 * cross-site request (app shells, gateways' notifications, servers) and goes on.
 */
export function registerOriginCheck(app: FastifyInstance, allowed: ReadonlySet<string>) {
  app.addHook('onRequest', async (req) => {
    if (READS.has(req.method)) return;
    const origin = claimedOrigin(req);
    if (origin === undefined || allowed.has(origin)) return;
    req.log.warn(
      { security: 'foreign-origin', origin: origin.slice(0, 200), url: req.routeOptions.url },
      'request from another site refused',
    );
    throw forbidden('请求来源不被允许');
  });
}
