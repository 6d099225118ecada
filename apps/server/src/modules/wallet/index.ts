import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import type { WalletPort } from './wallet.port.ts';
import { createWalletRepository } from './wallet.repository.ts';
import { walletRoutes } from './wallet.routes.ts';
import * as wallet from './wallet.service.ts';

export { isVip } from './vip.ts';
export type { PaidOrder, WalletPort } from './wallet.port.ts';

/** The coin ledger, chapter purchases, VIP and the consumption records. */
export async function registerWallet(app: FastifyInstance, ctx: ModuleContext): Promise<WalletPort> {
  const deps: wallet.WalletDeps = {
    repo: createWalletRepository(ctx.db),
    count: (event) => ctx.ports.metrics.count(event),
  };
  await walletRoutes(app, deps);
  return {
    balanceOf: deps.repo.balanceOf,
    ownedChapters: deps.repo.ownedChapters,
    creditPaidOrder: (tx, order) => wallet.creditPaidOrder(deps, { tx, order }),
  };
}
