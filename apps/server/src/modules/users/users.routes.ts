import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { signedIn } from '../../shared/signed-in.ts';
import { countsAsSeen, SESSION_COOKIE } from './sessions.ts';
import * as users from './users.service.ts';

export interface UsersRoutesOptions extends users.UsersDeps {
  registerPerHour: number;
}

/** Visitors: registration, user info and the first-visit report. The account calls are in account.routes.ts. */
export async function usersRoutes(app: FastifyInstance, deps: UsersRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    // Per client address (req.ip: the socket's, or the first one TRUST_PROXY's proxies did not add).
    ...contractRoute(routes.register, {
      config: { rateLimit: { max: deps.registerPerHour, timeWindow: '1 hour' } },
    }),
    handler: async (req, reply) => {
      const { info, session } = await users.register(deps, {
        fromDomain: req.query.fromDomain ?? '',
        traceId: req.headers['x-trace-id'],
        branchHeader: req.headers['x-branch-id'],
        ip: req.ip,
        oldToken: req.cookies[SESSION_COOKIE],
        seen: countsAsSeen(req.headers),
      });
      reply.startSession(session.token, session.expiresAt);
      return ok(info);
    },
  });

  r.route({
    ...contractRoute(routes.userInfo),
    handler: async (req) => ok(await users.userInfo(deps, { userId: signedIn(req).userId })),
  });

  r.route({
    ...contractRoute(routes.userFromMark),
    handler: async (req) =>
      ok(
        await users.markFirstVisit(deps, {
          traceId: req.headers['x-trace-id'],
          branchHeader: req.headers['x-branch-id'],
          referUrl: req.query.referUrl ?? '',
          userId: req.user?.userId ?? null,
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? '',
          seen: countsAsSeen(req.headers),
        }),
      ),
  });
}
