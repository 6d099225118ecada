import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, PACK_KEEPERS, PACK_VIEWERS } from '../operators/index.ts';
import { type CardConsoleDeps, cardClaims, cardReward, setCardReward } from './card.console.service.ts';

/** The monthly card in the console: owners and finance set the daily reward, as they edit packs; support sees it. */
export async function cardConsoleRoutes(app: FastifyInstance, deps: CardConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.cardReward, { config: { operatorRoles: PACK_VIEWERS } }),
    handler: async () => ok(await cardReward(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.setCardReward, { config: { operatorRoles: PACK_KEEPERS } }),
    handler: async (req) =>
      ok(await setCardReward(deps, { reward: req.body, by: auditActorOf(req) }), '月卡奖励已保存'),
  });

  r.route({
    ...contractRoute(adminRoutes.cardClaims, { config: { operatorRoles: PACK_VIEWERS } }),
    handler: async (req) => ok(await cardClaims(deps, { days: req.query.days })),
  });
}
