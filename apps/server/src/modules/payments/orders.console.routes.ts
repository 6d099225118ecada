import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BranchId } from '@yueman/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/client.ts';
import { ok } from '../../shared/envelope.ts';
import { consolePageQuery, consoleWindow } from '../../shared/pagination.ts';
import { ORDER_READERS, operatorOfRequest, REFUNDERS, REVENUE_READERS } from '../operators/index.ts';
import { createOrdersConsoleRepository } from './orders.console.repository.ts';
import {
  listOrders,
  maskedEverywhere,
  maskOrderNo,
  type OrdersConsoleDeps,
  orderStory,
  revenue,
} from './orders.console.service.ts';

const tags = ['admin'];

/** Whether this operator sees order numbers in part: every role that does not refund (issue 23 item 2). */
const seesNumbersInPart = (req: FastifyRequest) => !REFUNDERS.includes(operatorOfRequest(req).role);

/** A merchant order number, as the refund call takes it. */
const OrderNo = Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' });
/** A China date (its being a real day is checked by the service, naming the field). */
const ChinaDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const State = Type.Union(['created', 'paid', 'expired', 'cancelled'].map((s) => Type.Literal(s)));

/**
 * The console's orders: the list with its filters, one order's whole story (events with what the gateway said,
 * refunds, ledger), and revenue per promotion branch. Read-only; refunds are refunds.routes.ts.
 */
export async function ordersConsoleRoutes(
  app: FastifyInstance,
  input: { db: Database; gateways: OrdersConsoleDeps['gateways'] },
) {
  const deps: OrdersConsoleDeps = { repo: createOrdersConsoleRepository(input.db), gateways: input.gateways };
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/admin/orders',
    {
      schema: {
        tags,
        summary:
          '订单列表（服务器分页，新的在前；from/to 为北京时间日期，按下单时间；不能退款的角色看到部分隐藏的订单号）',
        querystring: Type.Object({
          ...consolePageQuery,
          orderNo: Type.Optional(OrderNo),
          userId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
          state: Type.Optional(State),
          channel: Type.Optional(Type.String({ maxLength: 32, pattern: '^[A-Za-z0-9_]+$' })),
          branchId: Type.Optional(BranchId),
          from: Type.Optional(ChinaDate),
          to: Type.Optional(ChinaDate),
        }),
      },
      config: { operatorRoles: ORDER_READERS },
    },
    async (req) => {
      const { page, size, ...filter } = req.query;
      const [{ total, list }, channels] = await Promise.all([
        listOrders(deps, { ...filter, ...consoleWindow({ page, size }) }),
        deps.repo.channels(),
      ]);
      const shown = seesNumbersInPart(req)
        ? list.map((o) => ({ ...o, orderNo: maskOrderNo(o.orderNo) }))
        : list;
      return ok({ page, size, total, list: shown, channels });
    },
  );

  r.get(
    '/api/admin/orders/:orderNo',
    {
      schema: {
        tags,
        summary: '订单的完整经过：订单、读者、事件（含网关报文）、退款、账本',
        params: Type.Object({ orderNo: OrderNo }),
      },
      config: { operatorRoles: ORDER_READERS },
    },
    async (req) => {
      const story = await orderStory(deps, req.params.orderNo);
      return ok(seesNumbersInPart(req) ? maskedEverywhere(story, story.order.orderNo) : story);
    },
  );

  r.get(
    '/api/admin/orders/by-id/:id',
    {
      schema: {
        tags,
        summary: '订单的完整经过，按订单 ID（列表中订单号部分隐藏的角色由此打开）',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
      },
      config: { operatorRoles: ORDER_READERS },
    },
    async (req) => {
      const story = await orderStory(deps, { id: req.params.id });
      return ok(seesNumbersInPart(req) ? maskedEverywhere(story, story.order.orderNo) : story);
    },
  );

  r.get(
    '/api/admin/revenue',
    {
      schema: {
        tags,
        summary: '各推广渠道的营收（北京时间日期，含首尾；默认最近 7 天，最长 92 天）',
        querystring: Type.Object({ from: Type.Optional(ChinaDate), to: Type.Optional(ChinaDate) }),
      },
      config: { operatorRoles: REVENUE_READERS },
    },
    async (req) => ok(await revenue(deps, req.query)),
  );
}
