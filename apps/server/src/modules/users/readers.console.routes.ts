import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { auditActorOf, READER_ACCOUNT_KEEPERS, READER_VIEWERS } from '../operators/index.ts';
import {
  type ReaderCareDeps,
  type ReaderConsoleDeps,
  readerProfile,
  readerPurchases,
  readerRecords,
  readerSessions,
  readerTransfers,
  resetReaderPassword,
  searchReaders,
  setReaderBlock,
  signReaderOut,
} from './readers.console.service.ts';

/**
 * The console's readers: customer service, finance and owners find a reader and read their page; customer service
 * and owners keep the account (password, sign-out, block). Coins and VIP are the wallet's console routes.
 */
export async function readerConsoleRoutes(app: FastifyInstance, deps: ReaderConsoleDeps & ReaderCareDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const keepers = { config: { operatorRoles: READER_ACCOUNT_KEEPERS } };
  const viewers = { config: { operatorRoles: READER_VIEWERS } };

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

  r.route({
    ...contractRoute(adminRoutes.searchReaders, viewers),
    handler: async (req) => ok(await searchReaders(deps, req.query)),
  });

  r.route({
    ...contractRoute(adminRoutes.readerProfile, viewers),
    handler: async (req) => ok(await readerProfile(deps, req.params)),
  });

  r.route({
    ...contractRoute(adminRoutes.readerPurchases, viewers),
    handler: async (req) => ok(await readerPurchases(deps, { ...req.params, ...req.query })),
  });

  r.route({
    ...contractRoute(adminRoutes.readerRecords, viewers),
    handler: async (req) => ok(await readerRecords(deps, { ...req.params, ...req.query })),
  });

  r.route({
    ...contractRoute(adminRoutes.readerTransfers, viewers),
    handler: async (req) => ok(await readerTransfers(deps, { ...req.params, ...req.query })),
  });

  r.route({
    ...contractRoute(adminRoutes.readerSessions, viewers),
    handler: async (req) => ok(await readerSessions(deps, { ...req.params, ...req.query })),
  });

  r.route({
    ...contractRoute(adminRoutes.signReaderOut, keepers),
    handler: async (req) =>
      ok(
        await signReaderOut(deps, {
          userId: req.params.userId,
          reason: req.body.reason,
          by: auditActorOf(req),
        }),
        '已让读者在所有设备上退出登录',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.blockReader, keepers),
    handler: async (req) =>
      ok(
        await setReaderBlock(deps, {
          userId: req.params.userId,
          block: true,
          reason: req.body.reason,
          by: auditActorOf(req),
        }),
        '已封禁充值和购买',
      ),
  });

  r.route({
    ...contractRoute(adminRoutes.unblockReader, keepers),
    handler: async (req) =>
      ok(
        await setReaderBlock(deps, {
          userId: req.params.userId,
          block: false,
          reason: req.body.reason,
          by: auditActorOf(req),
        }),
        '已解除封禁',
      ),
  });
}
