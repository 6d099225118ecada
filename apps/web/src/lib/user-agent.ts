export type ClientType = 'wechat' | 'android' | 'ios' | 'pc';

/** Client type from the user agent (spec section 1): WeChat first, then the phone platforms, else PC. */
export function clientType(ua = navigator.userAgent): ClientType {
  if (/MicroMessenger/i.test(ua)) return 'wechat';
  if (/Android/i.test(ua)) return 'android';
  if (/iPhone|iPad|iPod/i.test(ua)) return 'ios';
  return 'pc';
}

/**
 * Whether the app sends this browser to the PC page (its QR code) instead of the page asked for: a PC browser is, unless
 * the address says it was opened from the console (`from=console`), as an operator follows a complaint's page link
 * to see the reported page. The mark only skips this redirect: the page is the one any phone browser is shown,
 * with the same visitor account and the same server checks.
 */
export function goesToPcPage(search: string, ua = navigator.userAgent): boolean {
  return clientType(ua) === 'pc' && new URLSearchParams(search).get('from') !== 'console';
}

/** The two chat apps whose in-app browsers are sent to the 'open in your browser' prompt. */
export function isChatAppBrowser(ua = navigator.userAgent): boolean {
  return /MicroMessenger/i.test(ua) || /\sQQ\/[\d.]+/i.test(ua);
}

/** WeChat's own browser: the one chat app where a reader can pay (WeChat Pay JSAPI), when the server offers it. */
export const isWechatBrowser = (ua = navigator.userAgent): boolean => /MicroMessenger/i.test(ua);
