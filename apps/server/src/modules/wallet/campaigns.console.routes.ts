import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import * as campaigns from './campaigns.console.service.ts';

/** The console's campaigns (限免与折扣): owners and editors see and change them (audited). */
export async function campaignsConsoleRoutes(app: FastifyInstance, deps: campaigns.CampaignsConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const writers = { config: { operatorRoles: CATALOGUE_WRITERS } };

  r.route({
    ...contractRoute(adminRoutes.campaigns, writers),
    handler: async (req) => ok(await campaigns.campaigns(deps, req.query)),
  });

  r.route({
    ...contractRoute(adminRoutes.addCampaign, writers),
    handler: async (req) =>
      ok(await campaigns.addCampaign(deps, { ...req.body, by: auditActorOf(req) }), '已创建活动'),
  });

  r.route({
    ...contractRoute(adminRoutes.editCampaign, writers),
    handler: async (req) =>
      ok(
        await campaigns.editCampaign(deps, { ...req.body, id: req.params.id, by: auditActorOf(req) }),
        '已保存活动',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.endCampaign, writers),
    handler: async (req) =>
      ok(await campaigns.endCampaign(deps, { id: req.params.id, by: auditActorOf(req) }), '活动已结束'),
  });
}
