import { createHash, randomBytes } from 'node:crypto';

// The official account's server API, as WeChat documents it (developers.weixin.qq.com, 公众号 / 服务号):
// - the access token: GET /cgi-bin/token?grant_type=client_credential&appid&secret → { access_token, expires_in }
//   (7200 s; a new one replaces the old after a short overlap; our server's IP must be on the account's whitelist);
// - the JS-SDK ticket: GET /cgi-bin/ticket/getticket?access_token&type=jsapi → { errcode: 0, ticket, expires_in };
// - wx.config's signature: sha1 of `jsapi_ticket=…&noncestr=…&timestamp=…&url=…` (keys sorted, the page's URL
//   without its #fragment);
// - a subscription notice (订阅通知, one per consent): POST /cgi-bin/message/subscribe/bizsend?access_token with
//   { touser, template_id, page, data: { key: { value } } } → { errcode, errmsg }; 43101 means the reader has no
//   consent left for that template (or refused it).

const REQUEST_TIMEOUT_MS = 10_000;
/** A token or ticket is renewed this long before WeChat says it ends, so a request never carries a dying one. */
const RENEW_EARLY_MS = 5 * 60 * 1000;
/** WeChat's codes for an access token it no longer takes (invalid, expired, not the latest). */
const STALE_TOKEN = new Set([40001, 40014, 42001]);
/** The reader has no consent left for this template, or refused it. */
export const NO_CONSENT = 43101;

export interface WechatConfigSignature {
  appId: string;
  timestamp: number;
  nonceStr: string;
  signature: string;
}

/** A send's outcome: sent, refused by WeChat (its errcode: nothing was sent), or unknown (no answer). */
export type SendOutcome =
  | { ok: true }
  | { ok: false; errcode: number; errmsg: string }
  | { ok: false; errcode: undefined; errmsg: string };

export interface WechatMp {
  signConfig(url: string): Promise<WechatConfigSignature>;
  send(message: {
    openid: string;
    templateId: string;
    page: string;
    data: Record<string, { value: string }>;
  }): Promise<SendOutcome>;
}

/** The sha1 wx.config checks, over the four keys in their sorted order. */
export function configSignature(p: { ticket: string; nonceStr: string; timestamp: number; url: string }) {
  const text = `jsapi_ticket=${p.ticket}&noncestr=${p.nonceStr}&timestamp=${p.timestamp}&url=${p.url}`;
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** Kept until shortly before it ends; one request at a time renews it (the others wait for that one). */
function cached(fetchValue: () => Promise<{ value: string; expiresInS: number }>, now: () => Date) {
  let kept: { value: string; until: number } | undefined;
  let pending: Promise<string> | undefined;
  return {
    async get(): Promise<string> {
      if (kept && kept.until > now().getTime()) return kept.value;
      pending ??= fetchValue()
        .then(({ value, expiresInS }) => {
          kept = { value, until: now().getTime() + expiresInS * 1000 - RENEW_EARLY_MS };
          return value;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
    forget() {
      kept = undefined;
    },
  };
}

export function createWechatMp(opts: {
  appid: string;
  appSecret: string;
  apiBaseUrl: string;
  now?: () => Date;
}): WechatMp {
  const now = opts.now ?? (() => new Date());
  const base = opts.apiBaseUrl.replace(/\/+$/, '');

  async function call(path: string, query: Record<string, string>, body?: unknown) {
    const url = new URL(`${base}${path}`);
    url.search = new URLSearchParams(query).toString();
    const res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return (await res.json()) as Record<string, unknown>;
  }

  // The URLs carry the AppSecret or the token: a failure tells WeChat's errcode, never the address.
  const token = cached(async () => {
    const json = await call('/cgi-bin/token', {
      grant_type: 'client_credential',
      appid: opts.appid,
      secret: opts.appSecret,
    });
    if (typeof json.access_token !== 'string')
      throw new Error(`WeChat gave no access token: errcode ${String(json.errcode)}`);
    return { value: json.access_token, expiresInS: Number(json.expires_in) || 7200 };
  }, now);

  /** A call with the access token; a token WeChat no longer takes is renewed and the call made once more. */
  async function withToken(path: string, query: Record<string, string>, body?: unknown) {
    let json = await call(path, { ...query, access_token: await token.get() }, body);
    if (STALE_TOKEN.has(Number(json.errcode))) {
      token.forget();
      json = await call(path, { ...query, access_token: await token.get() }, body);
    }
    return json;
  }

  const ticket = cached(async () => {
    const json = await withToken('/cgi-bin/ticket/getticket', { type: 'jsapi' });
    if (typeof json.ticket !== 'string')
      throw new Error(`WeChat gave no jsapi_ticket: errcode ${String(json.errcode)}`);
    return { value: json.ticket, expiresInS: Number(json.expires_in) || 7200 };
  }, now);

  return {
    async signConfig(url) {
      const timestamp = Math.floor(now().getTime() / 1000);
      const nonceStr = randomBytes(12).toString('hex');
      const signature = configSignature({ ticket: await ticket.get(), nonceStr, timestamp, url });
      return { appId: opts.appid, timestamp, nonceStr, signature };
    },

    async send(message) {
      let accessToken: string;
      try {
        accessToken = await token.get();
      } catch (err) {
        // Nothing reached the send call: a refusal, safe to try again later.
        return { ok: false, errcode: -1, errmsg: (err as Error).message };
      }
      const body = {
        touser: message.openid,
        template_id: message.templateId,
        page: message.page,
        data: message.data,
      };
      const path = '/cgi-bin/message/subscribe/bizsend';
      try {
        let json = await call(path, { access_token: accessToken }, body);
        if (STALE_TOKEN.has(Number(json.errcode))) {
          token.forget();
          json = await call(path, { access_token: await token.get() }, body);
        }
        const errcode = Number(json.errcode ?? 0);
        if (errcode === 0) return { ok: true };
        return { ok: false, errcode, errmsg: String(json.errmsg ?? '').slice(0, 120) };
      } catch (err) {
        // No answer: WeChat may or may not have sent it.
        return { ok: false, errcode: undefined, errmsg: (err as Error).message };
      }
    },
  };
}
