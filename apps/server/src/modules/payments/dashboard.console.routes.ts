import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { REVENUE_READERS } from '../operators/index.ts';
import { createDashboardRepository } from './dashboard.console.repository.ts';
import * as dashboard from './dashboard.console.service.ts';

/** The console's dashboard (数据概览): the money and the readers, owners and finance only. */
export async function dashboardConsoleRoutes(app: FastifyInstance, input: { db: Database }) {
  const deps: dashboard.DashboardDeps = { repo: createDashboardRepository(input.db) };
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.dashboard, { config: { operatorRoles: REVENUE_READERS } }),
    handler: async (req) => ok(await dashboard.dashboard(deps, req.query)),
  });
}
