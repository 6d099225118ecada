import type { FastifyInstance } from 'fastify';
import { createPasswordGuard } from '../../shared/passwords/password-guard.ts';
import type { ModuleContext } from '../module-context.ts';
import { accountRoutes } from './account.routes.ts';
import { createFollowsRepository } from './follows.repository.ts';
import { followsRoutes } from './follows.routes.ts';
import { handoffRoutes } from './handoff.routes.ts';
import { issueHandoff } from './handoff.service.ts';
import identity from './identity.plugin.ts';
import { createReadersConsoleRepository } from './readers.console.repository.ts';
import { readerConsoleRoutes } from './readers.console.routes.ts';
import { readerIdsMatching } from './readers.console.service.ts';
import { createProgressRepository } from './reading-progress.repository.ts';
import { readingProgressRoutes } from './reading-progress.routes.ts';
import { createSessionSweeper } from './session-sweeper.ts';
import type { UsersPort } from './users.port.ts';
import { createUsersRepository } from './users.repository.ts';
import { usersRoutes } from './users.routes.ts';
import * as users from './users.service.ts';

export type { UsersPort } from './users.port.ts';

const PASSWORD_WINDOW_MS = 15 * 60 * 1000;

/**
 * Visitors, sessions and accounts. Registers the identity plugin first of all modules' routes: every dynamic call
 * registered after it gets the session resolved (request.user).
 */
export async function registerUsers(app: FastifyInstance, ctx: ModuleContext): Promise<UsersPort> {
  const { config } = ctx;
  const repo = createUsersRepository(ctx.db);
  await app.register(identity, { repo, secureCookies: config.publicOrigin.startsWith('https://') });

  const deps: users.UsersDeps = { repo, balanceOf: (userId) => ctx.ports.wallet.balanceOf(userId) };
  const sweeper = createSessionSweeper({ repo, log: ctx.log.child({ job: 'session-sweeper' }) });
  ctx.jobs.add(sweeper.loop);

  await usersRoutes(app, { ...deps, registerPerHour: config.registerPerHour });
  await readingProgressRoutes(app, { repo: createProgressRepository(ctx.db) });
  const followsRepo = createFollowsRepository(ctx.db);
  await followsRoutes(app, { repo: followsRepo });
  await handoffRoutes(app, { ...deps, publicOrigin: config.publicOrigin });
  await accountRoutes(app, {
    ...deps,
    guard: createPasswordGuard({
      perAccount: config.loginFailuresPerAccount,
      perAddress: config.loginFailuresPerAddress,
      windowMs: PASSWORD_WINDOW_MS,
      store: app.limits,
    }),
    findAccountPerHour: config.findAccountPerHour,
    findAccountPerOrderPerHour: config.findAccountPerOrderPerHour,
    payerOf: (paid) => ctx.ports.payments.payerOf(paid),
  });

  // The console's reader accounts (support resets a password, audited); under /api/admin/, so the operators'
  // session plugin (registered before this module) guards them.
  const readersRepo = createReadersConsoleRepository(ctx.db);
  await readerConsoleRoutes(app, {
    repo: { ...repo, ...readersRepo },
    audit: (q, entry) => ctx.ports.operators.audit(q, entry),
    balanceOf: (userId) => ctx.ports.wallet.balanceOf(userId),
    records: (userId, limit, offset) => ctx.ports.wallet.records(userId, limit, offset),
  });

  return {
    userInfo: (userId) => users.userInfo(deps, { userId }),
    async attributionOf(userId) {
      const user = await repo.userById(userId);
      return user && { visitorId: user.visitorId, branchId: user.branchId, blocked: user.blockedAt !== null };
    },
    readerIdsMatching: (text, field, limit) =>
      readerIdsMatching({ repo: readersRepo }, { text, field, limit }),
    sweepExpiredSessions: sweeper.sweep,
    issueHandoff: (userId, to) =>
      issueHandoff({ ...deps, publicOrigin: config.publicOrigin }, { userId, to }),
    pileTold: (userId, bookId, chapter) => followsRepo.pileTold(userId, bookId, chapter),
  };
}
