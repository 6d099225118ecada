import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Env } from './config-schema.ts';
import { ConfigError } from './config-values.ts';
import type { AlipayGatewayOptions } from './modules/payments/gateways/alipay.gateway.ts';
import type { WechatPayOptions } from './modules/payments/gateways/wechat-pay.gateway.ts';

/** Our application at Alipay's open platform (ALIPAY_*), as its adapter takes it: set exactly when ALIPAY_APP_ID is. */
export type AlipaySettings = Omit<AlipayGatewayOptions, 'now'>;

/** Our merchant at WeChat Pay, API v3 (WECHATPAY_*), as its adapter takes it: set exactly when WECHATPAY_MCHID is. */
export type WechatPaySettings = Omit<WechatPayOptions, 'now'> & { baseUrl: string };

const trimmed = (value: string | undefined) => value?.trim() || undefined;

/** A setting given inline or as a file (NAME or NAME_FILE, not both; name null: a file only); undefined when neither. */
function inlineOrFile(env: Env, name: keyof Env | null, fileName: keyof Env | undefined): string | undefined {
  const inline = name ? trimmed(env[name] as string | undefined) : undefined;
  const file = fileName ? trimmed(env[fileName] as string | undefined) : undefined;
  if (inline && file) throw new ConfigError(`set ${name} or ${fileName}, not both`);
  if (!file) return inline;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`${fileName}: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
  }
}

/** PEM, or the bare base64 of Alipay's key tool (PKCS#8 or PKCS#1 private, SPKI public). */
function parseKey(text: string, kind: 'private' | 'public'): KeyObject {
  if (text.startsWith('-----BEGIN'))
    return kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
  const key = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  if (kind === 'public') return createPublicKey({ key, format: 'der', type: 'spki' });
  try {
    return createPrivateKey({ key, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key, format: 'der', type: 'pkcs1' });
  }
}

/**
 * Keys (PEM or bare base64) are parsed at start, and a private key signs a sample that its public half must verify (SHA256withRSA,
 * as both gateways sign): a wrong, swapped or damaged key stops the server with its variable's name.
 */
function rsaKey(pem: string, name: string, kind: 'private' | 'public') {
  try {
    const key = parseKey(pem, kind);
    if (key.asymmetricKeyType !== 'rsa') throw new Error(`a ${key.asymmetricKeyType} key, not RSA`);
    if (kind === 'private') {
      const sample = Buffer.from('yueman start-up check');
      if (!verify('sha256', sample, createPublicKey(key), sign('sha256', sample, key)))
        throw new Error('it does not verify its own signature');
    }
  } catch (err) {
    throw new ConfigError(`${name} is not an RSA ${kind} key (${(err as Error).message.split('\n')[0]})`);
  }
  return pem;
}

const requiredWith = (group: string) => (env: Env, name: keyof Env | null, fileName?: keyof Env) => {
  const value = inlineOrFile(env, name, fileName);
  if (!value) throw new ConfigError(`${fileName ?? name} is required with ${group}`);
  return value;
};

export function alipaySettings(env: Env): AlipaySettings | undefined {
  const appId = trimmed(env.ALIPAY_APP_ID);
  if (!appId) return undefined;
  const need = requiredWith('ALIPAY_APP_ID');
  return {
    appId,
    privateKey: rsaKey(
      need(env, 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PRIVATE_KEY_FILE'),
      'ALIPAY_PRIVATE_KEY',
      'private',
    ),
    alipayPublicKey: rsaKey(
      need(env, 'ALIPAY_PUBLIC_KEY', 'ALIPAY_PUBLIC_KEY_FILE'),
      'ALIPAY_PUBLIC_KEY',
      'public',
    ),
    gateway: env.ALIPAY_GATEWAY,
    sellerId: trimmed(env.ALIPAY_SELLER_ID),
  };
}

export function wechatPaySettings(env: Env): WechatPaySettings | undefined {
  const mchid = trimmed(env.WECHATPAY_MCHID);
  if (!mchid) return undefined;
  const need = requiredWith('WECHATPAY_MCHID');
  const apiV3Key = need(env, 'WECHATPAY_APIV3_KEY');
  if (Buffer.byteLength(apiV3Key) !== 32) throw new ConfigError('WECHATPAY_APIV3_KEY must be 32 characters');
  return {
    mchid,
    appid: need(env, 'WECHATPAY_APPID'),
    serial: need(env, 'WECHATPAY_SERIAL'),
    privateKey: rsaKey(
      need(env, null, 'WECHATPAY_PRIVATE_KEY_FILE'),
      'WECHATPAY_PRIVATE_KEY_FILE',
      'private',
    ),
    apiV3Key,
    platformPublicKey: rsaKey(
      need(env, null, 'WECHATPAY_PLATFORM_PUBLIC_KEY_FILE'),
      'WECHATPAY_PLATFORM_PUBLIC_KEY_FILE',
      'public',
    ),
    platformPublicKeyId: need(env, 'WECHATPAY_PLATFORM_PUBLIC_KEY_ID'),
    baseUrl: env.WECHATPAY_BASE_URL.replace(/\/+$/, ''),
    jsapi: jsapiSettings(env),
  };
}

/** JSAPI (paying inside WeChat), on when the official account's AppSecret is set. */
function jsapiSettings(env: Env): WechatPaySettings['jsapi'] {
  const appSecret = trimmed(env.WECHATPAY_APPSECRET);
  if (!appSecret) return undefined;
  if (!/^[0-9a-f]{32}$/i.test(appSecret))
    throw new ConfigError(
      'WECHATPAY_APPSECRET must be the official account’s AppSecret: 32 hexadecimal characters',
    );
  return {
    appSecret,
    oauthBaseUrl: env.WECHAT_OAUTH_BASE_URL.replace(/\/+$/, ''),
    apiBaseUrl: env.WECHAT_API_BASE_URL.replace(/\/+$/, ''),
  };
}
