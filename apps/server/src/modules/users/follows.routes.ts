import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import type { FollowsRepository } from './follows.repository.ts';
import { listFollows, saveFollows } from './follows.service.ts';

/** The books a reader follows (追更), kept on the account (follows.repository.ts). */
export async function followsRoutes(app: FastifyInstance, deps: { repo: FollowsRepository }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const sessionFirst = { preValidation: [requireSession] };

  r.route({
    // A tap, a shelf look, a login's merge: a few a minute; this bounds a script.
    ...contractRoute(routes.saveFollows, {
      ...sessionFirst,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    }),
    handler: async (req) =>
      ok(await saveFollows(deps, { userId: signedIn(req).userId, changes: [req.body] })),
  });

  r.route({
    ...contractRoute(routes.follows, sessionFirst),
    handler: async (req) => ok(await listFollows(deps, { userId: signedIn(req).userId })),
  });
}
