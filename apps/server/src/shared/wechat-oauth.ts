// The official account's web OAuth, silent scope snsapi_base, as WeChat documents it: the browser goes to
// open.weixin.qq.com/connect/oauth2/authorize and comes back with a one-use `code`, which
// api.weixin.qq.com/sns/oauth2/access_token exchanges, with the official account's AppSecret, for the reader's
// openid. Paying inside WeChat (JSAPI) and WeChat notices both use it.

export const DEFAULT_WECHAT_OAUTH_BASE_URL = 'https://open.weixin.qq.com';
export const DEFAULT_WECHAT_API_BASE_URL = 'https://api.weixin.qq.com';
const REQUEST_TIMEOUT_MS = 10_000;
// WeChat's codes for a code that cannot be exchanged again: invalid (40029), already used (40163), expired (42003).
// A fresh one is a silent redirect away.
const STALE_CODE_ERRORS = new Set([40029, 40163, 42003]);

export type OpenidResult =
  | { ok: true; openid: string }
  /** staleCode: ask WeChat for a fresh code (the page was reloaded, or the code expired). */
  | { ok: false; staleCode: boolean; reason: string };

/** The official account's web OAuth (snsapi_base): a code for the reader's openid. Notices bind readers with it too. */
export interface WechatOauth {
  /** Where the browser goes for the reader's openid; WeChat sends it back to `returnUrl` with code and state. */
  authorizeUrl(returnUrl: string, state: string): string;
  openidFor(code: string): Promise<OpenidResult>;
}

export function createWechatOauth(opts: {
  appid: string;
  appSecret: string;
  oauthBaseUrl?: string;
  apiBaseUrl?: string;
}): WechatOauth {
  const oauthBase = (opts.oauthBaseUrl ?? DEFAULT_WECHAT_OAUTH_BASE_URL).replace(/\/+$/, '');
  const apiBase = (opts.apiBaseUrl ?? DEFAULT_WECHAT_API_BASE_URL).replace(/\/+$/, '');
  return {
    authorizeUrl(returnUrl, state) {
      // WeChat reads these parameters in this order, and wants the #wechat_redirect fragment.
      const query = [
        `appid=${encodeURIComponent(opts.appid)}`,
        `redirect_uri=${encodeURIComponent(returnUrl)}`,
        'response_type=code',
        'scope=snsapi_base',
        `state=${encodeURIComponent(state)}`,
      ].join('&');
      return `${oauthBase}/connect/oauth2/authorize?${query}#wechat_redirect`;
    },

    async openidFor(code) {
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(code))
        return { ok: false, staleCode: false, reason: 'malformed code' };
      const url = new URL(`${apiBase}/sns/oauth2/access_token`);
      url.search = new URLSearchParams({
        appid: opts.appid,
        secret: opts.appSecret,
        code,
        grant_type: 'authorization_code',
      }).toString();
      let json: Record<string, unknown>;
      try {
        const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        json = (await res.json()) as Record<string, unknown>;
      } catch (err) {
        // The URL carries the AppSecret: only the error's own message is told, never the address.
        return { ok: false, staleCode: false, reason: `OAuth exchange failed: ${(err as Error).message}` };
      }
      const errcode = typeof json.errcode === 'number' ? json.errcode : 0;
      if (errcode !== 0)
        return {
          ok: false,
          staleCode: STALE_CODE_ERRORS.has(errcode),
          reason: `OAuth errcode ${errcode} ${String(json.errmsg ?? '').slice(0, 80)}`,
        };
      // A reader looking at the page in WeChat's "snapshot" preview has a virtual openid that cannot pay.
      if (json.is_snapshotuser === 1) return { ok: false, staleCode: false, reason: 'snapshot page user' };
      const openid = json.openid;
      if (typeof openid !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(openid))
        return { ok: false, staleCode: false, reason: 'OAuth answer without openid' };
      return { ok: true, openid };
    },
  };
}
