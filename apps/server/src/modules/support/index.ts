import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { createSupportConsoleRepository } from './support.console.repository.ts';
import { supportConsoleRoutes } from './support.console.routes.ts';
import { createSupportRepository } from './support.repository.ts';
import { supportRoutes } from './support.routes.ts';

/** Common info per branch, readers' contact details and reports (complaints), and their console calls. No other module calls it. */
export async function registerSupport(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  await supportRoutes(app, { repo: createSupportRepository(ctx.db) });
  await supportConsoleRoutes(app, {
    repo: createSupportConsoleRepository(ctx.db),
    audit: (q, entry) => ctx.ports.operators.audit(q, entry),
    changed: () => ctx.catalogueChanged(),
  });
}
