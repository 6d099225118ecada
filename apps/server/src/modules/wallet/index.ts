import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { campaignsConsoleRoutes } from './campaigns.console.routes.ts';
import { createCampaignsRepository } from './campaigns.repository.ts';
import { createCoinsConsoleRepository } from './coins.console.repository.ts';
import { coinsConsoleRoutes } from './coins.console.routes.ts';
import { createUnlocksRepository } from './unlocks.repository.ts';
import { unlocksRoutes } from './unlocks.routes.ts';
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
  await unlocksRoutes(app, { repo: createUnlocksRepository(ctx.db) });
  // The console's changes to a reader's coins and VIP days (under /api/admin/: the operators' session guards them).
  await coinsConsoleRoutes(app, {
    repo: createCoinsConsoleRepository(ctx.db),
    audit: (q, entry) => ctx.ports.operators.audit(q, entry),
  });
  // The console's campaigns (限免与折扣): owners and editors.
  await campaignsConsoleRoutes(app, {
    repo: createCampaignsRepository(ctx.db),
    audit: (q, entry) => ctx.ports.operators.audit(q, entry),
  });
  return {
    balanceOf: deps.repo.balanceOf,
    ownedChapters: deps.repo.ownedChapters,
    creditPaidOrder: (tx, order) => wallet.creditPaidOrder(deps, { tx, order }),
    takeBackCoins: (tx, take) => wallet.takeBackCoins(deps, { tx, take }),
    shortenVipOnce: (tx, a) => deps.repo.shortenVipOnce(tx, a),
    records: (userId, limit, offset) => wallet.consumptionWindow(deps, { userId, limit, offset }),
  };
}
