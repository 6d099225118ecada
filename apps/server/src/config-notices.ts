import type { Env } from './config-schema.ts';
import { ConfigError } from './config-values.ts';

export const NOTICE_KINDS = ['new_chapter', 'wait_free', 'saved_up', 'ticket_expiring'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * WeChat notices (WECHAT_NOTICE_TEMPLATES): the official account that sends them is the one WeChat Pay's JSAPI uses
 * (WECHATPAY_APPID and its AppSecret), so a reader's openid is the same for both. Set exactly when the templates are.
 */
export interface NoticeSettings {
  appid: string;
  appSecret: string;
  /** The Token of the official account's server configuration, which signs WeChat's event pushes. */
  pushToken: string;
  /** The template id per notice kind; a kind without one is never sent. */
  templates: Partial<Record<NoticeKind, string>>;
  oauthBaseUrl: string;
  apiBaseUrl: string;
  perDay: number;
  /** Seconds between two passes of the notices job (a test's server sets it short to see a notice at once). */
  passSeconds: number;
}

export function noticeSettings(env: Env): NoticeSettings | undefined {
  const list = env.WECHAT_NOTICE_TEMPLATES?.trim();
  if (!list) return undefined;
  const need = (name: 'WECHATPAY_APPID' | 'WECHATPAY_APPSECRET' | 'WECHAT_PUSH_TOKEN') => {
    const value = env[name]?.trim();
    if (!value) throw new ConfigError(`${name} is required with WECHAT_NOTICE_TEMPLATES`);
    return value;
  };
  const appSecret = need('WECHATPAY_APPSECRET');
  if (!/^[0-9a-f]{32}$/i.test(appSecret))
    throw new ConfigError(
      'WECHATPAY_APPSECRET must be the official account’s AppSecret: 32 hexadecimal characters',
    );
  const templates: NoticeSettings['templates'] = {};
  for (const pair of list.split(',')) {
    const [kind = '', id = ''] = pair.trim().split('=');
    if (templates[kind as NoticeKind]) throw new ConfigError(`WECHAT_NOTICE_TEMPLATES names ${kind} twice`);
    templates[kind as NoticeKind] = id;
  }
  return {
    appid: need('WECHATPAY_APPID'),
    appSecret,
    pushToken: need('WECHAT_PUSH_TOKEN'),
    templates,
    oauthBaseUrl: env.WECHAT_OAUTH_BASE_URL.replace(/\/+$/, ''),
    apiBaseUrl: env.WECHAT_API_BASE_URL.replace(/\/+$/, ''),
    perDay: env.NOTICES_PER_DAY,
    passSeconds: env.NOTICES_PASS_SECONDS,
  };
}
