import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { createLedgerRepository } from '../wallet/ledger.repository.ts';
import { backgroundLoop } from './background-loop.ts';
import { GatewayRegistry } from './gateways/gateway.ts';
import { createSandboxGateway } from './gateways/sandbox.gateway.ts';
import { createPaymentsRepository } from './payments.repository.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { expireStaleOrders, type PaymentsDeps } from './payments.service.ts';
import { createSandboxNotifier, type NotifySend } from './sandbox/sandbox.notifier.ts';
import { createSandboxProvider } from './sandbox/sandbox.provider.ts';
import { createSandboxRepository } from './sandbox/sandbox.repository.ts';
import { sandboxRoutes } from './sandbox/sandbox.routes.ts';

export interface PaymentsRuntime {
  /** One pass of the sandbox notifier: sends owed notifications that are due (tests pass their own send). */
  deliverDueNotifications(
    send?: NotifySend,
    now?: Date,
  ): Promise<{ delivered: number; failed: number; more: boolean }>;
  /** One pass of the sweeper: expires unpaid orders whose time is up; answers their ids. */
  expireStaleOrders(now?: Date): Promise<number[]>;
  /** Starts the notifier (every second) and the sweeper (every minute); app.close() stops them. */
  startBackgroundJobs(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsRuntime;
  }
}

const SWEEP_EVERY_MS = 60_000;

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

/** Packs, channels, orders, gateways (the sandbox for now), notifications and the sweeper. */
export async function registerPayments(
  app: FastifyInstance,
  opts: { config: Config; db: Database; usersRepo: UsersRepository },
) {
  const { config, db } = opts;
  const ledger = createLedgerRepository(db);
  const sandboxRepo = createSandboxRepository(db);
  const merchant = { id: config.sandboxMerchantId, name: '阅漫', key: config.sandboxPayKey };
  const provider = createSandboxProvider({
    repo: sandboxRepo,
    merchants: [merchant],
    cashierBase: config.dynamicApiBase || config.publicOrigin,
  });
  const notifier = createSandboxNotifier({
    repo: sandboxRepo,
    keyOf: (id) => (id === merchant.id ? merchant.key : undefined),
    log: app.log.child({ job: 'sandbox-notifier' }),
  });
  const deps: PaymentsDeps = {
    repo: createPaymentsRepository(db),
    ledger,
    users: { repo: opts.usersRepo, balanceOf: ledger.balanceOf },
    // Without the sandbox its channels have no gateway: not offered, refused at apply, notifications refused.
    gateways: new GatewayRegistry(
      config.sandboxPay
        ? [createSandboxGateway({ provider, merchantId: merchant.id, key: merchant.key })]
        : [],
    ),
    publicOrigin: config.publicOrigin,
    ownOrigins: new Set(config.trustedOrigins),
    notifyBase: () => config.payNotifyBase || ownAddress(app, config.port),
    orderMinutes: config.payOrderMinutes,
  };
  const sweeperLog = app.log.child({ job: 'pay-order-sweeper' });
  const sweeper = backgroundLoop({
    name: 'pay-order-sweeper',
    intervalMs: SWEEP_EVERY_MS,
    run: async () => {
      const expired = await expireStaleOrders(deps);
      if (expired.length > 0) sweeperLog.info({ expired: expired.length }, 'unpaid orders expired');
      return false;
    },
    log: sweeperLog,
  });

  app.decorate<PaymentsRuntime>('payments', {
    deliverDueNotifications: notifier.deliverDueNotifications,
    expireStaleOrders: (now) => expireStaleOrders(deps, now),
    startBackgroundJobs() {
      if (config.sandboxPay) notifier.start();
      sweeper.start();
    },
  });
  // Requests in flight finish first (Fastify closes the server before onClose); a pass in progress is awaited.
  app.addHook('onClose', async () => {
    await Promise.all([notifier.stop(), sweeper.stop()]);
  });

  await paymentsRoutes(app, deps);
  app.log.info(
    { sandboxPay: config.sandboxPay },
    config.sandboxPay
      ? 'the sandbox payment gateway takes payments (local origin or SANDBOX_PAY=true): never on a public site'
      : 'the sandbox payment gateway is off: channels without merchant keys show as under maintenance',
  );
  if (config.sandboxPay) {
    await sandboxRoutes(app, {
      repo: sandboxRepo,
      provider,
      notifier,
      trustedOrigins: config.trustedOrigins,
    });
  }
}
