import { type Static, Type } from 'typebox';

/** Injected by the server into index.html as window.__APP_CONFIG__; empty bases mean the page's own origin. */
export const RuntimeConfig = Type.Object({
  staticApiBase: Type.String(),
  dynamicApiBase: Type.String(),
  imageBase: Type.String(),
  /** 64 hex characters: the AES-256-GCM key of the encrypted covers. */
  coverKey: Type.String(),
  /**
   * WeChat notices are on: inside WeChat's own browser the book pages and chapters stay open (with 更新提醒), and a
   * hand-off link is taken there, instead of asking the reader to open the system browser.
   */
  wechatNotices: Type.Optional(Type.Boolean()),
});
export type RuntimeConfig = Static<typeof RuntimeConfig>;
