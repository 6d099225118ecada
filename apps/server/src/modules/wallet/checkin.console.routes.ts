import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, READER_VALUE_KEEPERS, READER_VIEWERS } from '../operators/index.ts';
import {
  type CheckinConsoleDeps,
  checkinClaims,
  checkinRewards,
  setCheckinRewards,
} from './checkin.console.service.ts';

/** Daily check-in in the console: owners and finance set the rewards; they and support see them and the claims. */
export async function checkinConsoleRoutes(app: FastifyInstance, deps: CheckinConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.checkinRewards, { config: { operatorRoles: READER_VIEWERS } }),
    handler: async () => ok(await checkinRewards(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.setCheckinRewards, { config: { operatorRoles: READER_VALUE_KEEPERS } }),
    handler: async (req) =>
      ok(await setCheckinRewards(deps, { days: req.body.days, by: auditActorOf(req) }), '签到奖励已保存'),
  });

  r.route({
    ...contractRoute(adminRoutes.checkinClaims, { config: { operatorRoles: READER_VIEWERS } }),
    handler: async (req) => ok(await checkinClaims(deps, { days: req.query.days })),
  });
}
