import { type KeyObject, randomBytes, sign } from 'node:crypto';
import { createWechatOauth, type OpenidResult } from '../../../shared/wechat-oauth.ts';

// Paying inside WeChat's own browser (JSAPI), as WeChat documents it:
// 1. the official account's web OAuth, silent scope snsapi_base, gives a one-use `code` for the reader's openid
//    (open.weixin.qq.com/connect/oauth2/authorize, then api.weixin.qq.com/sns/oauth2/access_token with the
//    official account's AppSecret);
// 2. POST /v3/pay/transactions/jsapi with payer.openid answers a prepay_id (valid two hours);
// 3. the page calls WeixinJSBridge.invoke('getBrandWCPayRequest', …) with the prepay_id signed by the merchant key
//    (SHA256withRSA over appId, timeStamp, nonceStr and package, each followed by a newline).
// The official account must be the one WECHATPAY_APPID names (the appid bound to the merchant), with this site's
// domain registered for web OAuth and its pay page's directory registered as a JSAPI payment directory.

export { DEFAULT_WECHAT_API_BASE_URL, DEFAULT_WECHAT_OAUTH_BASE_URL } from '../../../shared/wechat-oauth.ts';

export interface WechatJsapiOptions {
  /** The official account's AppSecret (its AppID is WECHATPAY_APPID). */
  appSecret: string;
  oauthBaseUrl?: string;
  apiBaseUrl?: string;
}

/** What the page hands WeixinJSBridge's getBrandWCPayRequest, signed. */
export interface BridgeParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: 'RSA';
  paySign: string;
}

export type { OpenidResult };

export interface WechatJsapi {
  /** Where the browser goes for the reader's openid; WeChat sends it back to `returnUrl` with code and state. */
  authorizeUrl(returnUrl: string, state: string): string;
  openidFor(code: string): Promise<OpenidResult>;
  /** Signs a prepay_id for the bridge. */
  bridgeParams(prepayId: string): BridgeParams;
}

export function createWechatJsapi(
  opts: WechatJsapiOptions & { appid: string; privateKey: KeyObject; now: () => Date },
): WechatJsapi {
  if (!/^[0-9a-f]{32}$/i.test(opts.appSecret))
    throw new Error("WeChat Pay: the official account's AppSecret is not 32 hexadecimal characters");
  return {
    ...createWechatOauth(opts),

    bridgeParams(prepayId) {
      const timeStamp = String(Math.floor(opts.now().getTime() / 1000));
      const nonceStr = randomBytes(16).toString('hex');
      const pkg = `prepay_id=${prepayId}`;
      const paySign = sign(
        'sha256',
        Buffer.from(`${opts.appid}\n${timeStamp}\n${nonceStr}\n${pkg}\n`, 'utf8'),
        opts.privateKey,
      ).toString('base64');
      return { appId: opts.appid, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
    },
  };
}
