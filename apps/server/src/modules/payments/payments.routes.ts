import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type AppType, gatewayRoutes, routes } from '@yueman/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { branchIdFrom, visitorIdFrom } from '../../shared/attribution.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { AppError } from '../../shared/errors.ts';
import { signedIn } from '../../shared/signed-in.ts';
import { fromOurPages } from './apply-guards.ts';
import type { PaymentStart } from './gateways/gateway.ts';
import { handleNotification } from './notify.service.ts';
import { isWechatBrowser, safeReturnUrl } from './order-rules.ts';
import type { PayChannel, PayOrder } from './payments.repository.ts';
import * as payments from './payments.service.ts';
import { payMessagePage, sendPayPage } from './wechat-jsapi-page.ts';

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

/** Who asks for an order and from where: kept on the order for reconciliation (docs/api.md section 4). */
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
    inWechat: isWechatBrowser(req.headers['user-agent']),
  };
}

export async function paymentsRoutes(app: FastifyInstance, deps: payments.PaymentsDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(routes.recharge),
    handler: async (req) => {
      const { userId } = signedIn(req);
      return ok(
        await payments.rechargeCentre(deps, {
          userId,
          appType: req.query.appType,
          inWechat: isWechatBrowser(req.headers['user-agent']),
          clientIp: req.ip,
        }),
      );
    },
  });

  r.route({
    ...contractRoute(routes.lastPaidOrder),
    handler: async (req) => ok(await payments.lastPaidOrder(deps, { userId: signedIn(req).userId })),
  });

  r.route({
    // On /h5, outside the identity plugin's /api: the route asks for the session (config.session).
    ...contractRoute(routes.payApply, {
      config: { ...applyLimit, session: true },
      onRequest: [fromOurPages(deps.ownOrigins)],
    }),
    handler: async (req, reply) => {
      const q = req.query;
      const applied = payments
        .applyForPayment(deps, {
          claimedUserId: q.userId,
          packId: q.payPurposeId,
          payPurpose: q.payPurpose,
          channelCode: q.payChannel,
          rechargerAmount: q.rechargerAmount,
          ...whoAndWhere(req, q),
        })
        .catch((err: unknown) => {
          // A web channel navigates the browser here: a refusal (a blocked account, a pack taken off) is a page the
          // reader can read, with the way back, not the envelope's JSON. Fetches (app channels, tests) get the envelope.
          if (err instanceof AppError && req.headers['sec-fetch-mode'] === 'navigate') return err;
          throw err;
        });
      const answer = await applied;
      if (answer instanceof AppError)
        return sendPayPage(
          reply as unknown as FastifyReply,
          answer.httpStatus,
          payMessagePage('充值', answer.message, safeReturnUrl(q.vueReturnUrl, deps.publicOrigin)),
        );
      const { order, channel, start } = answer;
      if (start.kind === 'redirect') return reply.redirect(start.url, 302);
      return ok(appAnswer(order, channel, start));
    },
  });

  // Spec: defined, use not shown. Same order as pay apply, answered as JSON (see docs/decisions.md).
  r.route({
    ...contractRoute(routes.payPay, { config: applyLimit }),
    handler: async (req) => {
      const q = req.query;
      const { order, channel, start } = await payments.applyForPayment(deps, {
        payPurpose: q.payPurpose,
        channelCode: q.payChannel,
        rechargerAmount: q.rechargerAmount,
        ...whoAndWhere(req, q),
      });
      return ok(appAnswer(order, channel, start));
    },
  });

  // Gateways post their own formats and some sign the raw bytes: this scope hands the body over unparsed.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...contractRoute(gatewayRoutes.payNotify),
      handler: async (req, reply) => {
        const { outcome, ack } = await handleNotification(deps, {
          channel: req.params.channel,
          headers: req.headers,
          body: typeof req.body === 'string' ? req.body : '',
          log: req.log,
        });
        deps.count?.({ event: 'pay-notification', outcome });
        // The gateway's own status and format: the entry types only its usual answer (200 and text).
        return reply
          .code(ack.status as 200)
          .type(ack.contentType)
          .send(ack.body);
      },
    });
  });
}
