import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../../shared/errors.ts';
import { resolveSession, SESSION_COOKIE, type SignedInUser } from './sessions.ts';
import type { UsersRepository } from './users.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, established by the `sid` cookie alone (docs/contract.md section 2). */
    user: SignedInUser | null;
  }
  interface FastifyReply {
    startSession(token: string, expiresAt: Date): FastifyReply;
  }
}

export interface IdentityOptions {
  repo: UsersRepository;
  secureCookies: boolean;
}

/**
 * Resolves the session for dynamic calls. The x-user-id and x-account headers are attribution only;
 * when they contradict the session the request is refused (403) and logged, so an edited header
 * can never act for another user.
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
      const session = await resolveSession(opts.repo, token);
      if (!session) return;
      request.user = session.user;
      if (session.renewedUntil) reply.startSession(token, session.renewedUntil);

      const claimedId = request.headers['x-user-id'];
      const claimedAccount = request.headers['x-account'];
      const idMismatch =
        typeof claimedId === 'string' && claimedId !== '' && claimedId !== String(session.user.userId);
      const accountMismatch =
        typeof claimedAccount === 'string' &&
        claimedAccount !== '' &&
        claimedAccount !== session.user.account;
      if (idMismatch || accountMismatch) {
        request.log.warn(
          { security: 'identity-mismatch', sessionUser: session.user.userId, claimedId, claimedAccount },
          'client identity headers contradict the session',
        );
        throw forbidden();
      }
    };

    // Only dynamic API calls are personal; static calls and images never look at the session.
    app.addHook('onRoute', (route) => {
      if (route.config?.staticCache || !route.url.startsWith('/api/')) return;
      const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
      route.onRequest = [...existing, resolveUser];
    });
  },
  { name: 'identity', dependencies: ['@fastify/cookie'] },
);
