import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { gatewayRoutes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
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
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...contractRoute(gatewayRoutes.refundNotify),
      handler: async (req, reply) => {
        const { ack } = await handleRefundNotification(deps, {
          channel: req.params.channel,
          headers: req.headers,
          body: typeof req.body === 'string' ? req.body : '',
          log: req.log,
        });
        // The gateway's own status and format: the entry types only its usual answer (200 and text).
        return reply
          .code(ack.status as 200)
          .type(ack.contentType)
          .send(ack.body);
      },
    });
  });
}
