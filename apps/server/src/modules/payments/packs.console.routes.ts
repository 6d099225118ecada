import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, PACK_KEEPERS, PACK_VIEWERS } from '../operators/index.ts';
import { createPacksConsoleRepository } from './packs.console.repository.ts';
import * as packs from './packs.console.service.ts';

/** The console's packs and pay channels: owners and finance edit them (audited); customer service reads them. */
export async function packsConsoleRoutes(
  app: FastifyInstance,
  input: Omit<packs.PacksConsoleDeps, 'repo'> & { db: Database },
) {
  const deps: packs.PacksConsoleDeps = { audit: input.audit, repo: createPacksConsoleRepository(input.db) };
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const keepers = { config: { operatorRoles: PACK_KEEPERS } };

  r.route({
    ...contractRoute(adminRoutes.packsAndChannels, { config: { operatorRoles: PACK_VIEWERS } }),
    handler: async () => ok(await packs.packsAndChannels(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.addPack, keepers),
    handler: async (req) =>
      ok(await packs.addPack(deps, { ...req.body, by: auditActorOf(req) }), '已添加套餐'),
  });

  r.route({
    ...contractRoute(adminRoutes.editPack, keepers),
    handler: async (req) =>
      ok(
        await packs.editPack(deps, { ...req.body, id: req.params.id, by: auditActorOf(req) }),
        '已保存，新订单生效',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.editChannel, keepers),
    handler: async (req) =>
      ok(
        await packs.editChannel(deps, { ...req.body, code: req.params.code, by: auditActorOf(req) }),
        '已保存，新订单生效',
      ),
  });
}
