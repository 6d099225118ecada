// Alipay and WeChat Pay played on loopback by their fakes (test/fakes), with the settings a deployment would set,
// for tests that pay through the real adapters end to end.
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { payOrders } from '../src/db/schema/index.ts';
import { startRealGateways } from './fakes/real-gateways-env.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { manyVisitorsEnv } from './visitors.ts';

export { startRealGateways };

/**
 * A test app whose Alipay and WeChat Pay channels go through the fakes, listening on loopback (the gateways notify
 * it over HTTP, at the address it tells them); close() stops the app and both fakes.
 */
export async function startGatewayApp(o: { env?: Record<string, string> } = {}) {
  const gateways = await startRealGateways();
  const t = await createTestApp({ env: { ...manyVisitorsEnv, ...gateways.env, ...o.env } });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    t,
    gateways,
    base,
    close: async () => {
      await t.close();
      await gateways.close();
    },
  };
}

export type GatewayApp = Awaited<ReturnType<typeof startGatewayApp>>;

/**
 * For a test file: the gateway app made before its tests and closed after them, and the ledger's invariants checked
 * after each test. Its fields are there once the file's tests run.
 */
export function gatewayAppPerFile(o: { env?: Record<string, string> } = {}): GatewayApp {
  const app = {} as GatewayApp;
  beforeAll(async () => {
    Object.assign(app, await startGatewayApp(o));
  });
  afterEach(async () => {
    await expectLedgerInvariants(app.t.db);
  });
  afterAll(() => app.close?.());
  return app;
}

/** The reader's newest order (the one pay apply just made). */
export async function latestOrderOf(t: TestApp, userId: number) {
  const [order] = await t.db
    .select()
    .from(payOrders)
    .where(eq(payOrders.userId, userId))
    .orderBy(desc(payOrders.id))
    .limit(1);
  if (!order) throw new Error(`no order for user ${userId}`);
  return order;
}
