import type { FastifyInstance } from 'fastify';
import { ownAddress } from '../../shared/own-address.ts';
import type { ModuleContext } from '../module-context.ts';
import { isLoopbackClient } from '../payments/index.ts';
import { createSandboxGateway } from './sandbox.gateway.ts';
import { createSandboxNotifier, currentNotifyUrl } from './sandbox.notifier.ts';
import type { SandboxPort } from './sandbox.port.ts';
import { createSandboxProvider } from './sandbox.provider.ts';
import { createSandboxRepository } from './sandbox.repository.ts';
import { sandboxRoutes } from './sandbox.routes.ts';

export type { NotifyRequest, NotifyResponse, NotifySend, SandboxPort } from './sandbox.port.ts';

/**
 * The sandbox payment gateway, a provider played inside our server: its cashier pages, its own book of payments
 * (sandbox_payments), its signed notifications to the payments module's notify URL (retried until acknowledged),
 * and our side of it, the gateway adapter the payments module uses where a channel has no real merchant keys.
 */
export async function registerSandbox(app: FastifyInstance, ctx: ModuleContext): Promise<SandboxPort> {
  const { config } = ctx;
  const repo = createSandboxRepository(ctx.db);
  const merchant = { id: config.sandboxMerchantId, name: '阅漫', key: config.sandboxPayKey };
  const provider = createSandboxProvider({
    repo,
    merchants: [merchant],
    cashierBase: config.dynamicApiBase || config.publicOrigin,
  });
  const notifier = createSandboxNotifier({
    repo,
    keyOf: (id) => (id === merchant.id ? merchant.key : undefined),
    log: ctx.log.child({ job: 'sandbox-notifier' }),
    // The sandbox runs inside our server: a notify address on loopback (this server's own, fixed when the order was
    // made, perhaps by a process since stopped, on a port it no longer has) goes to this server as it listens now.
    resolveUrl: (stored) =>
      currentNotifyUrl(stored, ownAddress(app, config.port), config.payNotifyBase || undefined),
  });
  // On by default only for a local origin, the sandbox takes payments only from this machine unless SANDBOX_PAY=true:
  // the default HOST listens on every interface, and anyone reaching the port would otherwise be given coins.
  const clientMayPay = (clientIp: string) => config.sandboxPayAnyClient || isLoopbackClient(clientIp);
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
      const owed = await repo.allOwedDue(new Date());
      if (owed > 0)
        ctx.log.warn(
          { sandbox: 'notify', owed },
          'sandbox notifications owed at the last stop: sending them now',
        );
    }
    ctx.jobs.add(notifier.loop);
    await sandboxRoutes(app, {
      repo,
      provider,
      notifier,
      trustedOrigins: config.trustedOrigins,
      clientMayPay,
    });
  }
  return {
    gateway: config.sandboxPay
      ? createSandboxGateway({ provider, merchantId: merchant.id, key: merchant.key })
      : undefined,
    clientMayPay,
    deliverDueNotifications: notifier.deliverDueNotifications,
  };
}
