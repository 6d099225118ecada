// Alipay and WeChat Pay played on loopback by their fakes, with the settings a deployment would set (the env of the
// server under test). Free of any test runner: vitest's tests and Playwright's browser walks both start them.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeAlipayKeys, startAlipayFake } from './alipay-fake.ts';
import { startWechatPayFake } from './wechat-pay-fake.ts';

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
    // JSAPI inside WeChat: the official account's OAuth, played by the same fake.
    WECHATPAY_APPSECRET: wechatPay.appSecret,
    WECHAT_OAUTH_BASE_URL: wechatPay.baseUrl,
    WECHAT_API_BASE_URL: wechatPay.baseUrl,
  };
  return {
    alipay,
    alipayKeys,
    wechatPay,
    env,
    close: () => Promise.all([alipay.close(), wechatPay.close()]),
  };
}
