import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';
import * as card from './card.service.ts';

/** The monthly card: its state and the day's claim, for any account (visitors too). */
export async function cardRoutes(app: FastifyInstance, deps: card.CardDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const sessionFirst = { preValidation: [requireSession] };

  r.route({
    ...contractRoute(routes.card, sessionFirst),
    handler: async (req) => ok(await card.cardState(deps, { userId: signedIn(req).userId })),
  });

  r.route({
    ...contractRoute(routes.claimCard, sessionFirst),
    handler: async (req) => {
      const done = await card.claimCard(deps, { userId: signedIn(req).userId });
      return ok(done, done.claimed ? '领取成功' : '今天已经领取过了');
    },
  });
}
