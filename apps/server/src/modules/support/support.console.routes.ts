import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import * as support from './support.console.service.ts';

/** Who reads the readers' complaints: owners and customer service. */
const COMPLAINT_READERS = ['owner', 'support'] as const;

/** The console's side of support: each promotion branch's service contacts, and the readers' complaints. */
export async function supportConsoleRoutes(app: FastifyInstance, deps: support.SupportConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.branches, { config: { operatorRoles: ANY_ROLE } }),
    handler: async () => ok(await support.branches(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.saveBranch, { config: { operatorRoles: CATALOGUE_WRITERS } }),
    handler: async (req) =>
      ok(
        await support.saveBranch(deps, {
          branchId: req.params.branchId,
          fields: req.body,
          editor: auditActorOf(req),
        }),
        '已保存',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.complaints, { config: { operatorRoles: COMPLAINT_READERS } }),
    handler: async (req) => ok(await support.complaints(deps, req.query)),
  });
}
