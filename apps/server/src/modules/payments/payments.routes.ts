import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  type AppType,
  Envelope,
  LastPaidOrder,
  PayApplyApp,
  PayApplyQuery,
  PayNotifyParams,
  PayPayQuery,
  RechargeQuery,
  RechargeResponse,
} from '@yueman/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { chinaTimeParts } from '../../shared/china-time.ts';
import { ok } from '../../shared/envelope.ts';
import { unauthorized } from '../../shared/errors.ts';
import { branchIdFrom, visitorIdFrom } from '../users/users.service.ts';
import { fromOurPages, sessionHook } from './apply-guards.ts';
import type { PaymentStart } from './gateways/gateway.ts';
import { handleNotification } from './notify.service.ts';
import type { PayChannel, PayOrder } from './payments.repository.ts';
import * as payments from './payments.service.ts';

const tags = ['payments'];
// Every apply makes an order: plenty for a reader (or a few behind one carrier NAT), not for a script.
const applyLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

const appAnswer = (order: PayOrder, channel: PayChannel, start: PaymentStart) => ({
  orderNo: order.orderNo,
  payChannel: channel.subTypeCode,
  superiorCode: channel.superiorCode,
  payAmount: order.payAmount,
  payUrl: start.kind === 'app' ? start.payUrl : start.url,
  expiresAt: order.expiresAt.toISOString(),
});

/** Who asks for an order and from where: kept on the order for reconciliation (docs/contract.md section 4). */
function whoAndWhere(
  req: FastifyRequest,
  q: { appType?: AppType; branchId?: number; fromDomain?: string; vueReturnUrl?: string },
) {
  const branchHeader = req.headers['x-branch-id'];
  return {
    sessionUserId: req.user?.userId ?? null,
    appType: q.appType ?? payments.DEFAULT_APP_TYPE,
    branchId: q.branchId ?? (branchHeader ? branchIdFrom(branchHeader) : undefined),
    fromDomain: q.fromDomain,
    returnUrl: q.vueReturnUrl,
    traceId: visitorIdFrom(req.headers['x-trace-id']),
    clientIp: req.ip,
  };
}

export async function paymentsRoutes(app: FastifyInstance, deps: payments.PaymentsDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/user/recharge',
    {
      schema: {
        tags,
        summary: '充值中心',
        querystring: RechargeQuery,
        response: { 200: Envelope(RechargeResponse) },
      },
    },
    async (req) => {
      if (!req.user) throw unauthorized();
      return ok(await payments.rechargeCentre(deps, req.user.userId, req.query.appType));
    },
  );

  r.get(
    '/api/pay/last_paid_order',
    {
      schema: {
        tags,
        summary: '最近一笔已支付订单（商户订单号）',
        response: { 200: Envelope(LastPaidOrder) },
      },
    },
    async (req) => {
      if (!req.user) throw unauthorized();
      const order = await deps.repo.lastPaidOrder(req.user.userId);
      if (!order?.paidAt) return ok(null);
      return ok({
        orderNo: order.orderNo,
        paidAt: chinaTimeParts(order.paidAt).text,
        payAmount: order.payAmount,
      });
    },
  );

  r.get(
    '/h5/pay/apply',
    {
      onRequest: [fromOurPages(deps.ownOrigins), sessionHook(deps.users.repo)],
      config: applyLimit,
      schema: {
        tags,
        summary: '发起支付：网页通道 302 到收银台，App 通道返回 JSON',
        querystring: PayApplyQuery,
        response: { 200: Envelope(PayApplyApp) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const q = req.query;
      const { order, channel, start } = await payments.applyForPayment(deps, {
        claimedUserId: q.userId,
        packId: q.payPurposeId,
        payPurpose: q.payPurpose,
        channelCode: q.payChannel,
        rechargerAmount: q.rechargerAmount,
        ...whoAndWhere(req, q),
      });
      if (start.kind === 'redirect') return reply.redirect(start.url, 302);
      return ok(appAnswer(order, channel, start));
    },
  );

  // Spec: defined, use not shown. Same order as pay apply, answered as JSON (see docs/decisions.md).
  r.post(
    '/api/pay/pay',
    {
      config: applyLimit,
      schema: {
        tags,
        summary: '下单（按金额匹配套餐），返回收银台地址',
        querystring: PayPayQuery,
        response: { 200: Envelope(PayApplyApp) },
      },
    },
    async (req) => {
      const q = req.query;
      const { order, channel, start } = await payments.applyForPayment(deps, {
        payPurpose: q.payPurpose,
        channelCode: q.payChannel,
        rechargerAmount: q.rechargerAmount,
        ...whoAndWhere(req, q),
      });
      return ok(appAnswer(order, channel, start));
    },
  );

  // Gateways post their own formats and some sign the raw bytes: this scope hands the body over unparsed.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope
      .withTypeProvider<TypeBoxTypeProvider>()
      .post(
        '/api/pay/notify/:channel',
        { schema: { tags, summary: '支付网关异步通知（服务器对服务器）', params: PayNotifyParams } },
        async (req, reply) => {
          const { ack } = await handleNotification(deps, {
            channel: req.params.channel,
            headers: req.headers,
            body: typeof req.body === 'string' ? req.body : '',
            log: req.log,
          });
          return reply
            .code(ack.status)
            .header('Cache-Control', 'no-store')
            .type(ack.contentType)
            .send(ack.body);
        },
      );
  });
}
