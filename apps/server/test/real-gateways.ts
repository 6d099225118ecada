// Alipay and WeChat Pay played on loopback by their fakes (test/fakes), with the settings a deployment would set,
// for tests that pay through the real adapters end to end.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { payOrders } from '../src/db/schema/index.ts';
import { makeAlipayKeys, startAlipayFake } from './fakes/alipay-fake.ts';
import { startWechatPayFake } from './fakes/wechat-pay-fake.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { manyVisitorsEnv } from './visitors.ts';

export async function startRealGateways() {
  const alipayKeys = makeAlipayKeys();
  const alipay = await startAlipayFake({
    appId: '2021000000000001',
    appPublicKey: alipayKeys.app.publicKey,
    alipayKeys: alipayKeys.alipay,
  });
  const merchant = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const wechat = {
    mchid: '1900000001',
    appid: 'wx0000000000000001',
    apiV3Key: 'k'.repeat(32),
    serial: '5157F09EFDC096DE15EBE81A47057A72',
  };
  const wechatPay = await startWechatPayFake({
    mchid: wechat.mchid,
    appid: wechat.appid,
    merchantSerial: wechat.serial,
    merchantPublicKey: merchant.publicKey,
    apiV3Key: wechat.apiV3Key,
  });
  const keys = mkdtempSync(path.join(tmpdir(), 'yueman-gateway-keys-'));
  const file = (name: string, text: string) => {
    const f = path.join(keys, name);
    writeFileSync(f, text, { mode: 0o600 });
    return f;
  };
  const env = {
    ALIPAY_APP_ID: alipay.appId,
    ALIPAY_PRIVATE_KEY: alipayKeys.app.privateKey,
    ALIPAY_PUBLIC_KEY: alipay.alipayPublicKey,
    ALIPAY_GATEWAY: alipay.gateway,
    ALIPAY_SELLER_ID: alipay.sellerId,
    WECHATPAY_MCHID: wechat.mchid,
    WECHATPAY_APPID: wechat.appid,
    WECHATPAY_SERIAL: wechat.serial,
    WECHATPAY_PRIVATE_KEY_FILE: file('apiclient_key.pem', merchant.privateKey),
    WECHATPAY_APIV3_KEY: wechat.apiV3Key,
    WECHATPAY_PLATFORM_PUBLIC_KEY_FILE: file('pub_key.pem', wechatPay.platformPublicKeyPem),
    WECHATPAY_PLATFORM_PUBLIC_KEY_ID: wechatPay.platformPublicKeyId,
    WECHATPAY_BASE_URL: wechatPay.baseUrl,
  };
  return {
    alipay,
    alipayKeys,
    wechatPay,
    env,
    close: () => Promise.all([alipay.close(), wechatPay.close()]),
  };
}

/**
 * A test app whose Alipay and WeChat Pay channels go through the fakes, listening on loopback (the gateways notify
 * it over HTTP, at the address it tells them); close() stops the app and both fakes.
 */
export async function startGatewayApp() {
  const gateways = await startRealGateways();
  const t = await createTestApp({ env: { ...manyVisitorsEnv, ...gateways.env } });
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
export function gatewayAppPerFile(): GatewayApp {
  const app = {} as GatewayApp;
  beforeAll(async () => {
    Object.assign(app, await startGatewayApp());
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
