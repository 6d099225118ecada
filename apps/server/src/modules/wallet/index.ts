import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.ts';
import type { ModuleContext } from '../module-context.ts';
import { createWalletRepository } from './wallet.repository.ts';
import { walletRoutes } from './wallet.routes.ts';
import * as wallet from './wallet.service.ts';

export { isVip } from './vip.ts';
export type { PaidOrder } from './wallet.service.ts';

/** What other modules may ask of the wallet: coins, chapters owned, and crediting a paid order. */
export interface WalletPort {
  balanceOf(userId: number): Promise<number>;
  /** Which of these chapters the user has bought. */
  ownedChapters(userId: number, chapterIds: number[]): Promise<Set<number>>;
  /** Coins and bonus, or VIP days, of an order just marked paid, inside the transaction `tx` that did so. */
  creditPaidOrder(tx: Queryable, order: wallet.PaidOrder): Promise<void>;
}

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
