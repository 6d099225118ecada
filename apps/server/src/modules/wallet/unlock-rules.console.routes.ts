import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import {
  bookUnlockRules,
  deleteBookUnlockRules,
  setBookUnlockRules,
  type UnlockRulesConsoleDeps,
} from './unlock-rules.console.service.ts';

/** A book's unlock rules: every role reads them beside the book, owners and editors set them. */
export async function unlockRulesConsoleRoutes(app: FastifyInstance, deps: UnlockRulesConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.bookUnlockRules, { config: { operatorRoles: ANY_ROLE } }),
    handler: async (req) => ok(await bookUnlockRules(deps, { ...req.params, ...req.query })),
  });

  r.route({
    ...contractRoute(adminRoutes.setBookUnlockRules, { config: { operatorRoles: CATALOGUE_WRITERS } }),
    handler: async (req) =>
      ok(
        await setBookUnlockRules(deps, { id: req.params.id, rules: req.body, by: auditActorOf(req) }),
        '解锁规则已保存',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.deleteBookUnlockRules, { config: { operatorRoles: CATALOGUE_WRITERS } }),
    handler: async (req) =>
      ok(
        await deleteBookUnlockRules(deps, {
          id: req.params.id,
          branchId: req.body.branchId,
          by: auditActorOf(req),
        }),
        '渠道专属规则已删除',
      ),
  });
}
