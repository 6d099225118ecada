import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../../shared/errors.ts';
import { refererOrigin } from '../../shared/origin-check.ts';
import { resolveSession, SESSION_COOKIE } from '../users/sessions.ts';
import type { PaymentsDeps } from './payments.service.ts';

/**
 * The identity plugin resolves sessions for /api routes only; pay apply lives on /h5 (spec section 7), so it
 * resolves its own, with the same rules: the cookie alone decides, contradicting headers are refused.
 */
export function sessionHook(usersRepo: PaymentsDeps['users']['repo']) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const session = await resolveSession(usersRepo, token);
    if (!session) return;
    request.user = session.user;
    if (session.renewedUntil) reply.startSession(token, session.renewedUntil);
    const { 'x-user-id': claimedId, 'x-account': claimedAccount } = request.headers;
    const contradicts = (claim: unknown, actual: string) =>
      typeof claim === 'string' && claim !== '' && claim !== actual;
    if (
      contradicts(claimedId, String(session.user.userId)) ||
      contradicts(claimedAccount, session.user.account)
    ) {
      request.log.warn(
        { security: 'identity-mismatch', sessionUser: session.user.userId, claimedId, claimedAccount },
        'client identity headers contradict the session',
      );
      throw forbidden();
    }
  };
}

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
        { security: 'foreign-pay-apply', site, refererOrigin },
        'pay apply not from our pages',
      );
      throw forbidden('请从本站页面发起支付');
    }
  };
}
