import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import * as home from './home.console.service.ts';

const readers = { config: { operatorRoles: ANY_ROLE } };
const writers = { config: { operatorRoles: CATALOGUE_WRITERS } };

/** The console's home page: each section's books in order, and the hot words. */
export async function homeConsoleRoutes(app: FastifyInstance, deps: home.HomeConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.homeSections, readers),
    handler: async () => ok(await home.sections(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.arrangeSection, writers),
    handler: async (req) => {
      const saved = await home.arrangeSection(deps, {
        type: req.params.type,
        bookIds: req.body.bookIds,
        editor: auditActorOf(req),
      });
      return ok(saved, '已保存');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.hotWords, readers),
    handler: async () => ok(await home.hotWords(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.searchTerms, readers),
    handler: async (req) => ok(await home.searchTerms(deps, { days: req.query.days ?? 7 })),
  });

  r.route({
    ...contractRoute(adminRoutes.setHotWords, writers),
    handler: async (req) =>
      ok(await home.setHotWords(deps, { list: req.body.words, editor: auditActorOf(req) }), '已保存'),
  });
}
