import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PaymentsDeps } from './payments.service.ts';
import { handleRefundNotification } from './refunds.service.ts';

/**
 * The gateways' refund notifications (WeChat Pay), read raw as payment notifications are. The owner's refund call
 * is the console's (orders.console.routes.ts).
 */
export async function refundsRoutes(app: FastifyInstance, deps: PaymentsDeps) {
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
