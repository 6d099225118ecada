import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, READER_VALUE_KEEPERS } from '../operators/index.ts';
import { adjustReaderCoins, adjustReaderVip, type CoinsConsoleDeps } from './coins.console.service.ts';

/** The console's changes to a reader's coins and VIP days: owners and finance. */
export async function coinsConsoleRoutes(app: FastifyInstance, deps: CoinsConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const keepers = { config: { operatorRoles: READER_VALUE_KEEPERS } };

  r.route({
    ...contractRoute(adminRoutes.adjustReaderCoins, keepers),
    handler: async (req) => {
      const done = await adjustReaderCoins(deps, { ...req.params, ...req.body, by: auditActorOf(req) });
      const verb = done.direction === 'grant' ? '已补发' : '已扣回';
      return ok(done, done.repeated ? '该调整已完成，未重复执行' : `${verb} ${done.amount} 阅币`);
    },
  });

  r.route({
    ...contractRoute(adminRoutes.adjustReaderVip, keepers),
    handler: async (req) => {
      const done = await adjustReaderVip(deps, { ...req.params, ...req.body, by: auditActorOf(req) });
      const verb = done.days > 0 ? `已赠送 VIP ${done.days} 天` : `已缩短 VIP ${-done.days} 天`;
      return ok(done, done.repeated ? '该调整已完成，未重复执行' : verb);
    },
  });
}
