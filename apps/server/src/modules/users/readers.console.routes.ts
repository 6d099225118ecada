import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, READER_ACCOUNT_KEEPERS } from '../operators/index.ts';
import { findReader, type ReaderConsoleDeps, resetReaderPassword } from './readers.console.service.ts';

/** The console's reader accounts: customer service (and owners) find a reader and give them a new password. */
export async function readerConsoleRoutes(app: FastifyInstance, deps: ReaderConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const keepers = { config: { operatorRoles: READER_ACCOUNT_KEEPERS } };

  r.route({
    ...contractRoute(adminRoutes.findReader, keepers),
    handler: async (req) => ok(await findReader(deps, req.query)),
  });

  r.route({
    ...contractRoute(adminRoutes.resetReaderPassword, keepers),
    handler: async (req) =>
      ok(
        await resetReaderPassword(deps, {
          userId: req.params.userId,
          reason: req.body.reason,
          by: auditActorOf(req),
        }),
        '密码已重置',
      ),
  });
}
