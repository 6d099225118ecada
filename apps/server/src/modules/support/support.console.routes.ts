import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS, COMPLAINT_HANDLERS } from '../operators/index.ts';
import * as support from './support.console.service.ts';

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

  const handlers = { config: { operatorRoles: COMPLAINT_HANDLERS } };

  r.route({
    ...contractRoute(adminRoutes.complaints, handlers),
    handler: async (req) => ok(await support.complaints(deps, req.query)),
  });

  r.route({
    ...contractRoute(adminRoutes.complaint, handlers),
    handler: async (req) => ok(await support.complaint(deps, req.params)),
  });

  r.route({
    ...contractRoute(adminRoutes.setComplaintState, handlers),
    handler: async (req) =>
      ok(
        await support.setComplaintState(deps, { ...req.params, ...req.body, editor: auditActorOf(req) }),
        '已更新',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.addComplaintNote, handlers),
    handler: async (req) =>
      ok(
        await support.addComplaintNote(deps, { ...req.params, ...req.body, editor: auditActorOf(req) }),
        '已记录',
      ),
  });
}
