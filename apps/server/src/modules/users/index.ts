import type { UserInfo } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { createPasswordGuard } from '../../shared/passwords/password-guard.ts';
import type { ModuleContext } from '../module-context.ts';
import { accountRoutes } from './account.routes.ts';
import { handoffRoutes } from './handoff.ts';
import identity from './identity.plugin.ts';
import { readerConsoleRoutes } from './readers.console.routes.ts';
import { readingProgressRoutes } from './reading-progress.ts';
import { createSessionSweeper } from './session-sweeper.ts';
import { createUsersRepository } from './users.repository.ts';
import { usersRoutes } from './users.routes.ts';
import * as users from './users.service.ts';

/** What other modules may ask of the users module. */
export interface UsersPort {
  /** The user info of the spec's section 3 (401 when the user is gone). */
  userInfo(userId: number): Promise<UserInfo>;
  /** The visitor id and promotion branch a user registered with, for attributing an order; undefined if unknown. */
  attributionOf(userId: number): Promise<{ visitorId: string; branchId: number } | undefined>;
  /** Removes sessions that ended before `now` (the session sweeper's pass); answers how many. */
  sweepExpiredSessions(now?: Date): Promise<number>;
}

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
  await readingProgressRoutes(app, ctx.db);
  await handoffRoutes(app, { ...deps, db: ctx.db, publicOrigin: config.publicOrigin });
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
  await readerConsoleRoutes(app, { repo, audit: (q, entry) => ctx.ports.operators.audit(q, entry) });

  return {
    userInfo: (userId) => users.userInfo(deps, { userId }),
    async attributionOf(userId) {
      const user = await repo.userById(userId);
      return user && { visitorId: user.visitorId, branchId: user.branchId };
    },
    sweepExpiredSessions: sweeper.sweep,
  };
}
