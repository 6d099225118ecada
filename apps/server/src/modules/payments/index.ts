import type { FastifyInstance } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import { ownAddress } from '../../shared/own-address.ts';
import type { ModuleContext } from '../module-context.ts';
import { dashboardConsoleRoutes } from './dashboard.console.routes.ts';
import { createAlipayGateway } from './gateways/alipay.gateway.ts';
import { GatewayRegistry } from './gateways/gateway.ts';
import { createWechatPayGateway } from './gateways/wechat-pay.gateway.ts';
import { ordersConsoleRoutes } from './orders.console.routes.ts';
import { packsConsoleRoutes } from './packs.console.routes.ts';
import type { PaymentsPort } from './payments.port.ts';
import { createPaymentsRepository } from './payments.repository.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { expireStaleOrders, type PaymentsDeps } from './payments.service.ts';
import { createReconciler } from './reconciler.ts';
import { refundsRoutes } from './refunds.routes.ts';
import { wechatJsapiRoutes } from './wechat-jsapi.routes.ts';

// For the gateway modules (the sandbox): the interface they implement and what they share with the order flow.
export { orderRef } from './order-ref.ts';
export { isLoopbackClient } from './order-rules.ts';
export type {
  Acknowledgement,
  NotificationInput,
  PaymentGateway,
  PaymentRequest,
  PaymentsPort,
  ReconcileOutcome,
  Verification,
} from './payments.port.ts';

/**
 * Packs, channels, orders, gateways (Alipay, WeChat Pay, and the sandbox module's where it is on), notifications,
 * the reconciler, refunds and the order sweeper.
 */
export async function registerPayments(app: FastifyInstance, ctx: ModuleContext): Promise<PaymentsPort> {
  const { config } = ctx;
  const alipay = config.alipay ? [createAlipayGateway(config.alipay)] : [];
  const wechatPay = config.wechatPay ? createWechatPayGateway(config.wechatPay) : undefined;
  const deps: PaymentsDeps = {
    repo: createPaymentsRepository(ctx.db),
    users: {
      userInfo: (userId) => ctx.ports.users.userInfo(userId),
      attributionOf: (userId) => ctx.ports.users.attributionOf(userId),
    },
    wallet: {
      creditPaidOrder: (tx, order) => ctx.ports.wallet.creditPaidOrder(tx, order),
      takeBackCoins: (tx, take) => ctx.ports.wallet.takeBackCoins(tx, take),
      shortenVipOnce: (tx, a) => ctx.ports.wallet.shortenVipOnce(tx, a),
      shortenCardOnce: (tx, a) => ctx.ports.wallet.shortenCardOnce(tx, a),
    },
    // A channel goes through the real gateway of its kind when its keys are set (its constructor checks them and
    // stops the start naming the wrong one), else through the sandbox where the sandbox is allowed; with neither
    // it is not offered, refused at apply, and its notifications are refused.
    gateways: new GatewayRegistry(() => [
      ...alipay,
      ...(wechatPay ? [wechatPay] : []),
      ...(ctx.ports.sandbox.gateway ? [ctx.ports.sandbox.gateway] : []),
    ]),
    publicOrigin: config.publicOrigin,
    ownOrigins: new Set(config.trustedOrigins),
    notifyBase: () => config.payNotifyBase || ownAddress(app, config.port),
    orderMinutes: config.payOrderMinutes,
    clientMayUse: (gatewayName, clientIp) =>
      gatewayName !== 'sandbox' || ctx.ports.sandbox.clientMayPay(clientIp),
    count: (event) => ctx.ports.metrics.count(event),
  };

  const sweeperLog = ctx.log.child({ job: 'pay-order-sweeper' });
  ctx.jobs.add(
    backgroundLoop({
      name: 'pay-order-sweeper',
      intervalMs: config.paySweepSeconds * 1000,
      run: async () => {
        const expired = await expireStaleOrders(deps);
        ctx.ports.metrics.count({ event: 'orders-expired', count: expired.length });
        if (expired.length > 0) sweeperLog.info({ expired: expired.length }, 'unpaid orders expired');
        return false;
      },
      log: sweeperLog,
    }),
  );

  // Orders whose notification never came: the real gateways are asked (once across servers).
  const reconciler = createReconciler(deps, {
    everySeconds: config.payReconcileSeconds,
    log: ctx.log.child({ job: 'pay-reconciler' }),
  });
  ctx.jobs.add(reconciler.loop);

  await paymentsRoutes(app, deps);
  if (wechatPay) await wechatJsapiRoutes(app, deps, wechatPay);
  await refundsRoutes(app, deps);
  await ordersConsoleRoutes(app, {
    db: ctx.db,
    gateways: deps.gateways,
    refunds: { ...deps, audit: (q, entry) => ctx.ports.operators.audit(q, entry) },
    readerIdsMatching: (text, field, limit) => ctx.ports.users.readerIdsMatching(text, field, limit),
  });
  await packsConsoleRoutes(app, { db: ctx.db, audit: (q, entry) => ctx.ports.operators.audit(q, entry) });
  await dashboardConsoleRoutes(app, { db: ctx.db });
  return {
    payerOf: deps.repo.payerOf,
    expireStaleOrders: (now) => expireStaleOrders(deps, { now }),
    reconcile: (now) => reconciler.pass(now),
  };
}
