import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../../shared/errors.ts';
import { countsAsSeen, resolveSession, SESSION_COOKIE } from './sessions.ts';
import type { UsersRepository } from './users.repository.ts';

export interface IdentityOptions {
  repo: UsersRepository;
  secureCookies: boolean;
}

/**
 * The one place a request's user is established: by the `sid` cookie alone (request.user, reply.startSession:
 * shared/signed-in.ts). It runs for every dynamic /api call, and for any other route that asks with
 * `config: { session: true }` (pay apply, on /h5). The x-user-id and x-account headers are attribution only;
 * when they contradict the session the request is refused (403) and logged, so an edited header can never act
 * for another user. Static calls and images never look at the session.
 */
export default fp(
  async (app, opts: IdentityOptions) => {
    app.decorateRequest('user', null);
    app.decorateReply('startSession', function (this: FastifyReply, token: string, expiresAt: Date) {
      return this.setCookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: opts.secureCookies,
        expires: expiresAt,
      });
    });

    const resolveUser = async (request: FastifyRequest, reply: FastifyReply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token) return;
      const session = await resolveSession(opts.repo, token, new Date(), countsAsSeen(request.headers));
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

    app.addHook('onRoute', (route) => {
      // The console's calls (/api/admin/) have their own session (modules/operators), never a reader's.
      const dynamicCall =
        route.url.startsWith('/api/') && !route.url.startsWith('/api/admin/') && !route.config?.staticCache;
      if (!dynamicCall && route.config?.session !== true) return;
      const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
      route.onRequest = [...existing, resolveUser];
    });
  },
  { name: 'identity', dependencies: ['@fastify/cookie'] },
);
