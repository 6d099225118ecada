import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import {
  auditActorOf,
  ORDER_READERS,
  operatorOfRequest,
  REFUNDERS,
  REVENUE_READERS,
} from '../operators/index.ts';
import { createOrdersConsoleRepository } from './orders.console.repository.ts';
import * as orders from './orders.console.service.ts';

/** Whether this operator sees order numbers in part: every role that does not refund. */
const viewerOf = (req: FastifyRequest): orders.Viewer => {
  const refunds = REFUNDERS.includes(operatorOfRequest(req).role);
  return { seesNumbersInPart: !refunds, seesRefunds: refunds };
};

const readers = { config: { operatorRoles: ORDER_READERS } };

/**
 * The console's orders: the list with its filters, one order's whole story (events with what the gateway said,
 * refunds, ledger), revenue per promotion branch, and the owner's refund.
 */
export async function ordersConsoleRoutes(
  app: FastifyInstance,
  input: Omit<orders.OrdersConsoleDeps, 'repo'> & { db: Database },
) {
  const deps: orders.OrdersConsoleDeps = { ...input, repo: createOrdersConsoleRepository(input.db) };
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.orders, readers),
    handler: async (req) => ok(await orders.listOrders(deps, req.query, viewerOf(req))),
  });

  r.route({
    ...contractRoute(adminRoutes.order, readers),
    handler: async (req) => ok(await orders.orderStoryFor(deps, req.params.orderNo, viewerOf(req))),
  });

  r.route({
    ...contractRoute(adminRoutes.orderById, readers),
    handler: async (req) => ok(await orders.orderStoryFor(deps, { id: req.params.id }, viewerOf(req))),
  });

  r.route({
    ...contractRoute(adminRoutes.revenue, { config: { operatorRoles: REVENUE_READERS } }),
    handler: async (req) => ok(await orders.revenue(deps, req.query)),
  });

  r.route({
    ...contractRoute(adminRoutes.refund, { config: { operatorRoles: REFUNDERS } }),
    handler: async (req) =>
      ok(
        await orders.refund(deps, { orderNo: req.params.orderNo, ...req.body, by: auditActorOf(req) }),
        '已提交退款',
      ),
  });
}
