import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { createSupportRepository } from './support.repository.ts';
import { supportRoutes } from './support.routes.ts';

/** Common info per branch, readers' contact details and reports (complaints). No other module calls it. */
export async function registerSupport(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  await supportRoutes(app, { repo: createSupportRepository(ctx.db) });
}
