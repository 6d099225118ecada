import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import { type HandoffDeps, issueHandoff, redeemHandoff } from './handoff.service.ts';
import { SESSION_COOKIE } from './sessions.ts';

/** Asking for a link to open this account in another browser, and opening it there (handoff.service.ts). */
export async function handoffRoutes(app: FastifyInstance, deps: HandoffDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(routes.handoff, {
      preValidation: [requireSession],
      config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
    }),
    handler: async (req) => ok(await issueHandoff(deps, { userId: signedIn(req).userId, to: req.query.to })),
  });

  // Opened in the other browser, the web app's /handoff screen posts the token (after asking, when that browser
  // already holds another account): this browser gets a new session of the account, replacing its own.
  r.route({
    ...contractRoute(routes.redeemHandoff, { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } }),
    handler: async (req, reply) => {
      const { session, user } = await redeemHandoff(
        { ...deps, log: req.log },
        { token: req.body.token, oldToken: req.cookies[SESSION_COOKIE] },
      );
      reply.startSession(session.token, session.expiresAt);
      return ok(user);
    },
  });
}
