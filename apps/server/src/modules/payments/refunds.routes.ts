import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Queryable } from '../../db/client.ts';
import { ok } from '../../shared/envelope.ts';
import { type AuditEntry, auditActorOf, REFUNDERS } from '../operators/index.ts';
import type { PaymentsDeps } from './payments.service.ts';
import { handleRefundNotification, refundOrder } from './refunds.service.ts';

/**
 * Refunds: the owner's call that gives money back through the gateway (the console's order screens come with its
 * part 2), and the gateways' refund notifications (WeChat Pay), read raw as payment notifications are.
 */
export async function refundsRoutes(
  app: FastifyInstance,
  deps: PaymentsDeps & { audit(q: Queryable, entry: AuditEntry): Promise<unknown> },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/api/admin/orders/:orderNo/refunds',
    {
      schema: {
        tags: ['admin'],
        summary: '原路退款（requestId：同一次退款重复提交只退一次）',
        params: Type.Object({ orderNo: Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' }) }),
        body: Type.Object({
          amount: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
          reason: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }),
          requestId: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
        }),
      },
      config: { operatorRoles: REFUNDERS },
    },
    async (req) =>
      ok(
        {
          refund: await refundOrder(deps, {
            orderNo: req.params.orderNo,
            ...req.body,
            reason: req.body.reason.trim(),
            by: auditActorOf(req),
          }),
        },
        '已提交退款',
      ),
  );

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/pay/notify/:channel/refund',
      {
        schema: {
          tags: ['payments'],
          summary: '支付网关的退款结果通知（服务器对服务器）',
          params: Type.Object({ channel: Type.String({ maxLength: 32 }) }),
        },
      },
      async (req, reply) => {
        const { ack } = await handleRefundNotification(deps, {
          channel: req.params.channel,
          headers: req.headers,
          body: typeof req.body === 'string' ? req.body : '',
          log: req.log,
        });
        return reply.code(ack.status).type(ack.contentType).send(ack.body);
      },
    );
  });
}
