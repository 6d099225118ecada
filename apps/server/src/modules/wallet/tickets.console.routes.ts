import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, READER_VALUE_KEEPERS, READER_VIEWERS } from '../operators/index.ts';
import { grantReaderTickets, readerTickets, type TicketsConsoleDeps } from './tickets.console.service.ts';

/** A reader's reading tickets: those who read the reader page list them; owners and finance grant them. */
export async function ticketsConsoleRoutes(app: FastifyInstance, deps: TicketsConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.readerTickets, { config: { operatorRoles: READER_VIEWERS } }),
    handler: async (req) => ok(await readerTickets(deps, { ...req.params, ...req.query })),
  });

  r.route({
    ...contractRoute(adminRoutes.grantReaderTickets, { config: { operatorRoles: READER_VALUE_KEEPERS } }),
    handler: async (req) => {
      const done = await grantReaderTickets(deps, { ...req.params, ...req.body, by: auditActorOf(req) });
      return ok(done, done.repeated ? '该发放已完成，未重复执行' : `已发放 ${done.count} 张阅读券`);
    },
  });
}
