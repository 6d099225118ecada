import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { campaignsConsoleRoutes } from './campaigns.console.routes.ts';
import { createCampaignsRepository } from './campaigns.repository.ts';
import { cardConsoleRoutes } from './card.console.routes.ts';
import { createCardRepository } from './card.repository.ts';
import { cardRoutes } from './card.routes.ts';
import * as card from './card.service.ts';
import { checkinConsoleRoutes } from './checkin.console.routes.ts';
import { createCheckinRepository } from './checkin.repository.ts';
import { checkinRoutes } from './checkin.routes.ts';
import { createCoinsConsoleRepository } from './coins.console.repository.ts';
import { coinsConsoleRoutes } from './coins.console.routes.ts';
import { createTicketsConsoleRepository } from './tickets.console.repository.ts';
import { ticketsConsoleRoutes } from './tickets.console.routes.ts';
import { createUnlockReadsRepository } from './unlock-reads.repository.ts';
import { createUnlockRulesConsoleRepository } from './unlock-rules.console.repository.ts';
import { unlockRulesConsoleRoutes } from './unlock-rules.console.routes.ts';
import { createUnlocksRepository } from './unlocks.repository.ts';
import { unlocksRoutes } from './unlocks.routes.ts';
import type { WalletPort } from './wallet.port.ts';
import { createWalletRepository } from './wallet.repository.ts';
import { walletRoutes } from './wallet.routes.ts';
import * as wallet from './wallet.service.ts';

export { isVip } from './vip.ts';
export type { PaidOrder, WalletPort } from './wallet.port.ts';

/** The coin ledger, chapter purchases, VIP, the monthly card and the consumption records. */
export async function registerWallet(app: FastifyInstance, ctx: ModuleContext): Promise<WalletPort> {
  const cardRepo = createCardRepository(ctx.db);
  const deps: wallet.WalletDeps = {
    repo: createWalletRepository(ctx.db),
    count: (event) => ctx.ports.metrics.count(event),
    giveCardDays: (tx, a) => card.giveCardDays({ repo: cardRepo }, tx, { ...a, at: new Date() }),
  };
  await walletRoutes(app, deps);
  const unlocksRepo = createUnlocksRepository(ctx.db);
  await unlocksRoutes(app, { repo: unlocksRepo });
  const unlockReads = createUnlockReadsRepository(ctx.db);
  // The console's changes to a reader's coins and VIP days (under /api/admin/: the operators' session guards them).
  await coinsConsoleRoutes(app, {
    repo: createCoinsConsoleRepository(ctx.db),
    audit: (q, entry) => ctx.ports.operators.audit(q, entry),
  });
  // The console's unlock rules of a book and reading-ticket grants (audited like the coin adjustments).
  const audit = (
    q: Parameters<typeof ctx.ports.operators.audit>[0],
    entry: Parameters<typeof ctx.ports.operators.audit>[1],
  ) => ctx.ports.operators.audit(q, entry);
  await unlockRulesConsoleRoutes(app, {
    repo: createUnlockRulesConsoleRepository(ctx.db),
    audit,
    changed: () => ctx.catalogueChanged(),
  });
  await ticketsConsoleRoutes(app, { repo: createTicketsConsoleRepository(ctx.db), audit });
  // The console's campaigns (限免与折扣): owners and editors.
  await campaignsConsoleRoutes(app, {
    repo: createCampaignsRepository(ctx.db),
    audit: (q, entry) => ctx.ports.operators.audit(q, entry),
  });
  // Daily check-in: the readers' claims, and the console's rewards and claims per day (owners and finance set them).
  const checkinRepo = createCheckinRepository(ctx.db);
  await checkinRoutes(app, { repo: checkinRepo });
  await checkinConsoleRoutes(app, { repo: checkinRepo, audit });
  // The monthly card: the readers' daily claims, and the console's daily reward and claims per day.
  await cardRoutes(app, { repo: cardRepo });
  await cardConsoleRoutes(app, { repo: cardRepo, audit });
  return {
    balanceOf: deps.repo.balanceOf,
    ownedChapters: deps.repo.ownedChapters,
    creditPaidOrder: (tx, order) => wallet.creditPaidOrder(deps, { tx, order }),
    takeBackCoins: (tx, take) => wallet.takeBackCoins(deps, { tx, take }),
    shortenVipOnce: (tx, a) => deps.repo.shortenVipOnce(tx, a),
    shortenCardOnce: (tx, a) => card.takeBackCardDays({ repo: cardRepo }, tx, { ...a, at: new Date() }),
    records: (userId, limit, offset) => wallet.consumptionWindow(deps, { userId, limit, offset }),
    heldUnlock: (userId, chapterId) => unlocksRepo.held(userId, chapterId),
    unlockOptions: (userId, chapterId) => unlocksRepo.options(userId, chapterId),
    chapterMarks: unlockReads.chapterMarks,
    bookWaitFree: unlockReads.bookWaitFree,
  };
}
