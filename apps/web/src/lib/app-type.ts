import type { AppType } from '@yueman/contract';
import { clientType } from './user-agent.ts';

/**
 * The Android app shell is a WebView that appends `YuemanApp/{version}` to its user agent (and may expose
 * `window.YuemanShell`). A marker in the user agent is known before any script of the shell has run, and a
 * phone browser never sends it.
 */
export const SHELL_UA_MARKER = /\bYuemanApp\/[\w.]+/;

export interface ShellBridge {
  /**
   * Hands a pay order (PayApplyApp as JSON) to the shell, which opens the payment app and, when the reader
   * comes back, loads returnUrl (the pay apply call's vueReturnUrl).
   */
  pay?(orderJson: string, returnUrl: string): void;
}

declare global {
  interface Window {
    YuemanShell?: ShellBridge;
  }
  interface Navigator {
    /** iOS Safari: true when the page was launched from the home screen. */
    standalone?: boolean;
  }
}

export function isAndroidShell(ua = navigator.userAgent): boolean {
  return SHELL_UA_MARKER.test(ua) || (/Android/i.test(ua) && !!window.YuemanShell);
}

/** Launched from the iOS home screen ('add to desktop'): no browser chrome around the page. */
export function isIosDesk(ua = navigator.userAgent): boolean {
  if (clientType(ua) !== 'ios') return false;
  return navigator.standalone === true || !!window.matchMedia?.('(display-mode: standalone)').matches;
}

/**
 * The recharge call's appType (spec section 7), which decides the pay channels offered: shell inside the Android app, ios_desk from the iOS home screen, wap_browser in a phone's browser, other
 * for anything else (a PC, or a chat app's browser that did not leave for the system browser).
 */
export function appType(ua = navigator.userAgent): AppType {
  if (isAndroidShell(ua)) return 'shell';
  if (isIosDesk(ua)) return 'ios_desk';
  const client = clientType(ua);
  return client === 'android' || client === 'ios' ? 'wap_browser' : 'other';
}
