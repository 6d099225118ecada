import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import * as unlocks from './unlocks.service.ts';

/** Unlocking a chapter beyond buying it (wait-for-free, tickets), and the reader's tickets. */
export async function unlocksRoutes(app: FastifyInstance, deps: unlocks.UnlocksDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const sessionFirst = { preValidation: [requireSession] };

  r.route({
    ...contractRoute(routes.unlockChapter, sessionFirst),
    handler: async (req) => {
      const user = signedIn(req);
      const unlock = await unlocks.unlockChapter(deps, {
        userId: user.userId,
        blocked: user.blocked,
        ...req.body,
      });
      return ok(unlock, '解锁成功');
    },
  });

  r.route({
    ...contractRoute(routes.tickets, sessionFirst),
    handler: async (req) => ok(await unlocks.tickets(deps, { userId: signedIn(req).userId })),
  });
}
