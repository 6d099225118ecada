import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/yueman-config-test', ...env });
const rsa = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const app = rsa();
const platform = rsa();
const dir = mkdtempSync(path.join(tmpdir(), 'yueman-pay-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('the real gateways’ settings', () => {
  it('leaves both gateways off without their ids, and reads keys inline or from files', () => {
    const none = load({});
    expect(none.alipay).toBeUndefined();
    expect(none.wechatPay).toBeUndefined();
    expect(none.payReconcileSeconds).toBe(120);
    const alipay = load({
      ALIPAY_APP_ID: '2021000000000000',
      ALIPAY_PRIVATE_KEY_FILE: file('app.pem', app.privateKey),
      ALIPAY_PUBLIC_KEY: platform.publicKey,
    }).alipay;
    expect(alipay).toMatchObject({
      appId: '2021000000000000',
      gateway: 'https://openapi.alipay.com/gateway.do',
      sellerId: undefined,
    });
    expect(alipay?.privateKey).toBe(app.privateKey.trim());
    // The bare base64 Alipay's key tool prints is taken too.
    const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    expect(
      load({
        ALIPAY_APP_ID: '2021000000000000',
        ALIPAY_PRIVATE_KEY: bare(app.privateKey),
        ALIPAY_PUBLIC_KEY: bare(platform.publicKey),
      }).alipay?.appId,
    ).toBe('2021000000000000');
    const wechatEnv = {
      WECHATPAY_MCHID: '1900000001',
      WECHATPAY_APPID: 'wx0000000000000001',
      WECHATPAY_SERIAL: '5157F09EFDC096DE15EBE81A47057A72',
      WECHATPAY_PRIVATE_KEY_FILE: file('merchant.pem', app.privateKey),
      WECHATPAY_APIV3_KEY: 'a'.repeat(32),
      WECHATPAY_PLATFORM_PUBLIC_KEY_FILE: file('platform.pem', platform.publicKey),
      WECHATPAY_PLATFORM_PUBLIC_KEY_ID: 'PUB_KEY_ID_0000000001',
      WECHATPAY_BASE_URL: 'http://127.0.0.1:9/',
    };
    const wechat = load(wechatEnv).wechatPay;
    expect(wechat).toMatchObject({ mchid: '1900000001', baseUrl: 'http://127.0.0.1:9' });
    // JSAPI only with the official account's AppSecret; the OAuth addresses default to WeChat's.
    expect(wechat?.jsapi).toBeUndefined();
    expect(load({ ...wechatEnv, WECHATPAY_APPSECRET: 'ab'.repeat(16) }).wechatPay?.jsapi).toEqual({
      appSecret: 'ab'.repeat(16),
      oauthBaseUrl: 'https://open.weixin.qq.com',
      apiBaseUrl: 'https://api.weixin.qq.com',
    });
    expect(() => load({ ...wechatEnv, WECHATPAY_APPSECRET: 'SECRET-not-hex' })).toThrow(
      /^WECHATPAY_APPSECRET must be the official account’s AppSecret: 32 hexadecimal characters$/,
    );
  });

  it('stops the server naming the setting that is missing, unreadable, swapped or malformed', () => {
    const alipay = { ALIPAY_APP_ID: '2021000000000000' };
    const cases: [Record<string, string>, RegExp][] = [
      [alipay, /ALIPAY_PRIVATE_KEY_FILE is required with ALIPAY_APP_ID/],
      [{ ...alipay, ALIPAY_PRIVATE_KEY: app.privateKey }, /ALIPAY_PUBLIC_KEY_FILE is required/],
      // Alipay's public key given where our private key belongs: the classic mix-up.
      [
        { ...alipay, ALIPAY_PRIVATE_KEY: platform.publicKey, ALIPAY_PUBLIC_KEY: platform.publicKey },
        /ALIPAY_PRIVATE_KEY is not an RSA private key/,
      ],
      [
        { ...alipay, ALIPAY_PRIVATE_KEY: app.privateKey, ALIPAY_PUBLIC_KEY: 'MIIB...' },
        /ALIPAY_PUBLIC_KEY is not an RSA public key/,
      ],
      [
        {
          ...alipay,
          ALIPAY_PRIVATE_KEY: app.privateKey,
          ALIPAY_PRIVATE_KEY_FILE: file('x.pem', app.privateKey),
        },
        /ALIPAY_PRIVATE_KEY or ALIPAY_PRIVATE_KEY_FILE, not both/,
      ],
      [
        { ...alipay, ALIPAY_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem') },
        /ALIPAY_PRIVATE_KEY_FILE: cannot read .*ENOENT/,
      ],
      [{ WECHATPAY_MCHID: '1900000001' }, /WECHATPAY_APIV3_KEY is required with WECHATPAY_MCHID/],
      [
        { WECHATPAY_MCHID: '1900000001', WECHATPAY_APIV3_KEY: 'short' },
        /WECHATPAY_APIV3_KEY must be 32 characters/,
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => load(env), message.source).toThrow(ConfigError);
      expect(() => load(env), message.source).toThrow(message);
    }
  });

  it('never repeats a key in its messages', () => {
    try {
      load({
        ALIPAY_APP_ID: '1',
        ALIPAY_PRIVATE_KEY: 'not a key at all SECRET',
        ALIPAY_PUBLIC_KEY: platform.publicKey,
      });
    } catch (err) {
      expect((err as Error).message).not.toContain('SECRET');
      return;
    }
    throw new Error('a bad key was taken');
  });
});
