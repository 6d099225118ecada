import { type Static, Type } from 'typebox';

// WeChat notices (更新提醒): inside WeChat, the reader subscribes to the official account's notice templates with
// WeChat's `wx-open-subscribe` tag; the server signs `wx.config` for the page and counts, per template, the
// notices the reader's consents still allow (WeChat's rule: one message per consent).

export const NoticeKind = Type.Union([
  Type.Literal('new_chapter'),
  Type.Literal('wait_free'),
  Type.Literal('saved_up'),
  Type.Literal('ticket_expiring'),
]);
export type NoticeKind = Static<typeof NoticeKind>;

/** GET /api/notices/wechat (session): the templates to offer and the notices each still allows. */
export const NoticeStatus = Type.Object({
  /** Whether the account knows the reader's openid at the official account (bound once through WeChat's OAuth). */
  bound: Type.Boolean(),
  /** Where to send the browser to bind it (WeChat's silent OAuth), coming back to the page. */
  bindUrl: Type.String(),
  templates: Type.Array(
    Type.Object({
      kind: NoticeKind,
      templateId: Type.String(),
      /** Notices left: what WeChat told our server the reader accepted, minus those sent. */
      remaining: Type.Integer({ minimum: 0 }),
    }),
  ),
});
export type NoticeStatus = Static<typeof NoticeStatus>;

/** POST /api/notices/wechat/config: the page's address (this site's), to sign wx.config for. */
export const WechatConfigBody = Type.Object({ url: Type.String({ minLength: 1, maxLength: 1024 }) });

/** What wx.config takes, signed by the server (sha1 of jsapi_ticket, noncestr, timestamp and url). */
export const WechatConfig = Type.Object({
  appId: Type.String(),
  timestamp: Type.Integer(),
  nonceStr: Type.String(),
  signature: Type.String(),
  openTagList: Type.Array(Type.String()),
});
export type WechatConfig = Static<typeof WechatConfig>;

/**
 * POST /api/notices/wechat/subscribed: what the `wx-open-subscribe` tag's success event said (accepted template
 * ids). Only shown back: the counts move on WeChat's own event push to the server, never on this.
 */
export const NoticeSubscribedBody = Type.Object({
  /** The accepted template ids, separated by commas (a form field). */
  accepted: Type.String({ maxLength: 1024 }),
});
