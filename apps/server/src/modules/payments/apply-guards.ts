import type { FastifyRequest } from 'fastify';
import { refererOrigin } from '../../shared/origin-check.ts';
import { notFromOurPages } from './payments.errors.ts';

/**
 * Pay apply is a navigation from our own pages (spec section 7), never another site's link or form: a browser says
 * where it comes from in Sec-Fetch-Site, else in Referer. App shells and servers send neither and go on.
 */
export function fromOurPages(ours: ReadonlySet<string>) {
  return async (request: FastifyRequest) => {
    const site = request.headers['sec-fetch-site'];
    const from = refererOrigin(request);
    const refererOurs = from === undefined || ours.has(from);
    const ok =
      site === 'same-origin' || (site === 'same-site' && refererOurs) || (site === undefined && refererOurs);
    if (!ok) {
      request.log.warn(
        { security: 'foreign-pay-apply', site, refererOrigin: from },
        'pay apply not from our pages',
      );
      throw notFromOurPages();
    }
  };
}
