import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { backgroundLoop } from '../../shared/background-loop.ts';
import { createPasswordGuard } from '../../shared/passwords/password-guard.ts';
import type { ModuleContext } from '../module-context.ts';
import operatorSession from './operator-session.plugin.ts';
import { operatorsRoutes } from './operators.console.routes.ts';
import type { OperatorsPort } from './operators.port.ts';
import { createOperatorsRepository } from './operators.repository.ts';
import { addOperator, rotatePassword } from './operators.service.ts';

// For other modules' console routes: the roles to name in `config.operatorRoles`, and the operator of a call.
export { auditActorOf, operatorOfRequest } from './operator-session.plugin.ts';
export type { AuditEntry, OperatorsPort } from './operators.port.ts';
export {
  ANY_ROLE,
  CATALOGUE_WRITERS,
  COMPLAINT_HANDLERS,
  ORDER_READERS,
  OWNER_ONLY,
  PACK_KEEPERS,
  PACK_VIEWERS,
  READER_ACCOUNT_KEEPERS,
  READER_VALUE_KEEPERS,
  READER_VIEWERS,
  REFUNDERS,
  REVENUE_READERS,
} from './roles.ts';

/**
 * `npm run operator` (src/cli/operator-cli.ts): the same writes as the console's, audited as the command line's.
 * Each answers the generated password, to be shown once.
 */
export const operatorCommands = (db: Database) => {
  const repo = createOperatorsRepository(db);
  return {
    add: (name: string, role: string) => addOperator(repo, { name, role, actor: { cli: true } }),
    passwd: (name: string) => rotatePassword(repo, { name, actor: { cli: true } }),
    /** The audit log, for the command line's other writes (`npm run import` on its own). */
    audit: repo.audit,
  };
};

const PASSWORD_WINDOW_MS = 15 * 60 * 1000;

/**
 * The console's operators: their accounts, sessions (cookie `yadm`, sent only to /api/admin), roles and the audit
 * log of their writes. Its session plugin guards every /api/admin/ route that any module registers after it.
 */
export async function registerOperators(app: FastifyInstance, ctx: ModuleContext): Promise<OperatorsPort> {
  const { config } = ctx;
  const repo = createOperatorsRepository(ctx.db);
  await app.register(operatorSession, { repo, origins: new Set(config.trustedOrigins) });
  const guard = createPasswordGuard({
    perAccount: config.loginFailuresPerAccount,
    perAddress: config.loginFailuresPerAddress,
    windowMs: PASSWORD_WINDOW_MS,
    store: app.limits,
    name: 'operator-password',
  });
  await operatorsRoutes(app, { repo, guard, secureCookies: config.publicOrigin.startsWith('https://') });
  // Ended console sessions only grow the table: removed hourly, once across servers.
  ctx.jobs.add(
    backgroundLoop({
      name: 'operator-session-sweeper',
      intervalMs: 3600 * 1000,
      run: async () => (await repo.sweepSessions(new Date())) < 0,
      log: ctx.log.child({ job: 'operator-session-sweeper' }),
    }),
  );
  return { count: repo.count, audit: (q, entry) => repo.audit(q, entry) };
}
