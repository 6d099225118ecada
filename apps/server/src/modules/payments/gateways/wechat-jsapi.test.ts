// The JSAPI pieces of the WeChat Pay adapter against the fake's official account: the OAuth address as WeChat
// reads it, the code exchanged once, WeChat's refusals told apart (a stale code is asked again, a wrong AppSecret is
// not), and the bridge's signature made so that WeChat's check of it passes.
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWechatPayFake, type WechatPayFake } from '../../../../test/fakes/wechat-pay-fake.ts';
import { createWechatJsapi } from './wechat-jsapi.ts';

const merchant = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const appid = 'wx0000000000000001';

describe('WeChat JSAPI: the official account’s OAuth and the bridge’s signature', () => {
  let fake: WechatPayFake;
  beforeAll(async () => {
    fake = await startWechatPayFake({
      mchid: '1900000001',
      appid,
      merchantSerial: 'S1',
      merchantPublicKey: merchant.publicKey,
      apiV3Key: 'k'.repeat(32),
    });
  });
  afterAll(() => fake.close());
  const jsapi = (appSecret = fake.appSecret) =>
    createWechatJsapi({
      appSecret,
      oauthBaseUrl: fake.baseUrl,
      apiBaseUrl: fake.baseUrl,
      appid,
      privateKey: createPrivateKey(merchant.privateKey),
      now: () => new Date(),
    });

  /** WeChat's part: the authorize address answers 302 back with a code. */
  async function codeFor(url: string) {
    const res = await fetch(url, { redirect: 'manual' });
    return new URL(String(res.headers.get('location'))).searchParams.get('code') ?? '';
  }

  it('refuses an AppSecret that is not one at start', () => {
    expect(() => jsapi('not-a-secret')).toThrow(/AppSecret is not 32 hexadecimal characters/);
  });

  it('exchanges a code for the openid once; a used code is stale, a wrong AppSecret is not', async () => {
    fake.signInWechat('oPayer0001');
    const url = jsapi().authorizeUrl('https://m.example.com/h5/pay/wechat/jsapi?orderNo=YM1', 'YM1');
    expect(url).toMatch(
      /\/connect\/oauth2\/authorize\?appid=wx0000000000000001&redirect_uri=https%3A%2F%2Fm\.example\.com%2Fh5%2Fpay%2Fwechat%2Fjsapi%3ForderNo%3DYM1&response_type=code&scope=snsapi_base&state=YM1#wechat_redirect$/,
    );
    const code = await codeFor(url);
    expect(await jsapi().openidFor(code)).toEqual({ ok: true, openid: 'oPayer0001' });
    expect(await jsapi().openidFor(code)).toMatchObject({ ok: false, staleCode: true });
    expect(await jsapi().openidFor('unknown')).toMatchObject({ ok: false, staleCode: true });
    const wrongSecret = await jsapi('0'.repeat(32)).openidFor(await codeFor(url));
    expect(wrongSecret).toMatchObject({ ok: false, staleCode: false });
    expect(JSON.stringify(wrongSecret)).not.toContain(fake.appSecret);
    expect(await jsapi().openidFor('a b')).toMatchObject({ ok: false, reason: 'malformed code' });
  });

  it('signs appId, timeStamp, nonceStr and package as WeChat checks them', () => {
    const p = jsapi().bridgeParams('wx201410272009395522657a690389285100');
    expect(p).toMatchObject({
      appId: appid,
      signType: 'RSA',
      package: 'prepay_id=wx201410272009395522657a690389285100',
    });
    expect(p.timeStamp).toMatch(/^\d{10}$/);
    const message = `${p.appId}\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`;
    expect(
      verify(
        'sha256',
        Buffer.from(message),
        createPublicKey(merchant.publicKey),
        Buffer.from(p.paySign, 'base64'),
      ),
    ).toBe(true);
  });
});
