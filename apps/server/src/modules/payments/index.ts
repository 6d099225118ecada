import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import type { ModuleContext } from '../module-context.ts';
import { createAlipayGateway } from './gateways/alipay.gateway.ts';
import { GatewayRegistry } from './gateways/gateway.ts';
import { createSandboxGateway } from './gateways/sandbox.gateway.ts';
import { createWechatPayGateway } from './gateways/wechat-pay.gateway.ts';
import { isLoopbackClient } from './order-rules.ts';
import { ordersConsoleRoutes } from './orders.console.routes.ts';
import { createPaymentsRepository } from './payments.repository.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { expireStaleOrders, type PaymentsDeps } from './payments.service.ts';
import { createReconciler, type ReconcileOutcome } from './reconciler.ts';
import { refundsRoutes } from './refunds.routes.ts';
import { createSandboxNotifier, currentNotifyUrl, type NotifySend } from './sandbox/sandbox.notifier.ts';
import { createSandboxProvider } from './sandbox/sandbox.provider.ts';
import { createSandboxRepository } from './sandbox/sandbox.repository.ts';
import { sandboxRoutes } from './sandbox/sandbox.routes.ts';
import { wechatJsapiRoutes } from './wechat-jsapi.routes.ts';

/** What other modules (and operations) may ask of payments. */
export interface PaymentsPort {
  /** The user who paid the order with this merchant number and amount (cents), when paid in [from, to) (find-account). */
  payerOf(paid: { orderNo: string; from: Date; to: Date; payAmount: number }): Promise<number | undefined>;
  /** One pass of the sandbox notifier: sends owed notifications that are due (tests pass their own send). */
  deliverDueNotifications(
    send?: NotifySend,
    now?: Date,
  ): Promise<{ delivered: number; failed: number; more: boolean }>;
  /** One pass of the sweeper: expires unpaid orders whose time is up; answers their ids. */
  expireStaleOrders(now?: Date): Promise<number[]>;
  /** One round of the reconciler as if at `now`: what each order asked about turned out to be. */
  reconcile(now?: Date): Promise<{ outcomes: ReconcileOutcome[]; more: boolean }>;
}

/** This server's own address as seen from itself, once it listens (notifications loop back to it). */
function ownAddress(app: FastifyInstance, fallbackPort: number) {
  const address = app.server.address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') return `http://127.0.0.1:${fallbackPort}`;
  const host = ['0.0.0.0', '::'].includes(address.address)
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

/** Packs, channels, orders, gateways (the sandbox for now), notifications and the order sweeper. */
export async function registerPayments(app: FastifyInstance, ctx: ModuleContext): Promise<PaymentsPort> {
  const { config } = ctx;
  const sandboxRepo = createSandboxRepository(ctx.db);
  const merchant = { id: config.sandboxMerchantId, name: '阅漫', key: config.sandboxPayKey };
  const provider = createSandboxProvider({
    repo: sandboxRepo,
    merchants: [merchant],
    cashierBase: config.dynamicApiBase || config.publicOrigin,
  });
  const notifier = createSandboxNotifier({
    repo: sandboxRepo,
    keyOf: (id) => (id === merchant.id ? merchant.key : undefined),
    log: ctx.log.child({ job: 'sandbox-notifier' }),
    // The sandbox runs inside our server: a notify address on loopback (this server's own, fixed when the order was
    // made, perhaps by a process since stopped, on a port it no longer has) goes to this server as it listens now.
    resolveUrl: (stored) =>
      currentNotifyUrl(stored, ownAddress(app, config.port), config.payNotifyBase || undefined),
  });
  // On by default only for a local origin, the sandbox takes payments only from this machine unless SANDBOX_PAY=true:
  // the default HOST listens on every interface, and anyone reaching the port would otherwise be given coins.
  const sandboxClient = (clientIp: string) => config.sandboxPayAnyClient || isLoopbackClient(clientIp);
  const wechatPay = config.wechatPay ? createWechatPayGateway(config.wechatPay) : undefined;
  const deps: PaymentsDeps = {
    repo: createPaymentsRepository(ctx.db),
    users: {
      userInfo: (userId) => ctx.ports.users.userInfo(userId),
      attributionOf: (userId) => ctx.ports.users.attributionOf(userId),
    },
    wallet: { creditPaidOrder: (tx, order) => ctx.ports.wallet.creditPaidOrder(tx, order) },
    // A channel goes through the real gateway of its kind when its keys are set (its constructor checks them and
    // stops the start naming the wrong one), else through the sandbox where the sandbox is allowed; with neither
    // it is not offered, refused at apply, and its notifications are refused.
    gateways: new GatewayRegistry([
      ...(config.alipay ? [createAlipayGateway(config.alipay)] : []),
      ...(wechatPay ? [wechatPay] : []),
      ...(config.sandboxPay
        ? [createSandboxGateway({ provider, merchantId: merchant.id, key: merchant.key })]
        : []),
    ]),
    publicOrigin: config.publicOrigin,
    ownOrigins: new Set(config.trustedOrigins),
    notifyBase: () => config.payNotifyBase || ownAddress(app, config.port),
    orderMinutes: config.payOrderMinutes,
    clientMayUse: (gatewayName, clientIp) => gatewayName !== 'sandbox' || sandboxClient(clientIp),
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
  });
  ctx.log.info(
    { sandboxPay: config.sandboxPay, sandboxClients: config.sandboxPayAnyClient ? 'any' : 'this machine' },
    !config.sandboxPay
      ? 'the sandbox payment gateway is off: channels without merchant keys show as under maintenance'
      : config.sandboxPayAnyClient
        ? 'the sandbox payment gateway takes payments from anyone (SANDBOX_PAY=true): never on a public site'
        : 'the sandbox payment gateway takes payments from this machine only (local origin); SANDBOX_PAY=true opens it to other clients',
  );
  if (config.sandboxPay) {
    if (!config.databaseUrl) {
      // The embedded database has one process (the data directory's lock): no notification can be in flight
      // elsewhere, so what was owed at the last stop (waiting for a retry, or leased by a process that was killed)
      // is sent as soon as this server listens.
      const owed = await sandboxRepo.allOwedDue(new Date());
      if (owed > 0)
        ctx.log.warn(
          { sandbox: 'notify', owed },
          'sandbox notifications owed at the last stop: sending them now',
        );
    }
    ctx.jobs.add(notifier.loop);
    await sandboxRoutes(app, {
      repo: sandboxRepo,
      provider,
      notifier,
      trustedOrigins: config.trustedOrigins,
      clientMayPay: sandboxClient,
    });
  }

  return {
    payerOf: deps.repo.payerOf,
    deliverDueNotifications: notifier.deliverDueNotifications,
    expireStaleOrders: (now) => expireStaleOrders(deps, { now }),
    reconcile: (now) => reconciler.pass(now),
  };
}
