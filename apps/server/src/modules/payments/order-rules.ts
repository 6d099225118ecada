import { randomBytes } from 'node:crypto';
import { isAppShell, payAmountOf } from '@yueman/contract';
import { chinaTimeParts } from '../../shared/china-time.ts';

/** The discount as the recharge centre shows it: 95 -> 9.5, 100 -> 10 (no discount). */
export const discountOf = (discountPercent: number) => discountPercent / 10;

/**
 * What the payer pays through a channel whose discount is stored as a percent of the price (95 is 9.5折): the
 * contract's rule (packages/contract rules.ts), the same the web app applies to the discount it is shown.
 */
export const payAmountAt = (amountLevel: number, discountPercent: number) =>
  payAmountOf(amountLevel, discountOf(discountPercent));

/** 'YM', the China-time date, then 64 random bits: unguessable, and sortable by day for an operator. */
export function newOrderNo(now = new Date()) {
  const { year, month, day } = chinaTimeParts(now);
  const date = `${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
  return `YM${date}${randomBytes(8).toString('hex').toUpperCase()}`;
}

/**
 * Where the gateway returns the payer: a path or an absolute URL on the public origin, made absolute; anything
 * that resolves elsewhere ('//evil.example', '/\evil.example', 'https://evil.example', 'javascript:') becomes
 * the home page, so apply can never be used as an open redirect.
 */
export function safeReturnUrl(raw: string | undefined, publicOrigin: string): string {
  const origin = new URL(publicOrigin).origin;
  const home = `${origin}/home`;
  if (!raw) return home;
  try {
    const url = new URL(raw, `${origin}/`);
    return url.origin === origin ? url.href : home;
  } catch {
    return home;
  }
}

/** web channels send the browser to the cashier; app shells hand the data to their native bridge. */
export const clientOf = (appType: string): 'web' | 'app' => (isAppShell(appType) ? 'app' : 'web');

/**
 * WeChat's own browser (its user agent says MicroMessenger): only gateways that work there are offered. A client
 * that lies about it only changes which channels it is shown; each gateway still checks its own payer.
 */
export const isWechatBrowser = (userAgent: string | undefined) => /MicroMessenger/i.test(userAgent ?? '');

/**
 * A client on this machine (127.0.0.0/8, ::1, or IPv4-mapped 127.x), by the address the server computes for it
 * (TRUST_PROXY: behind a trusted proxy, the address the proxy saw, never the proxy's own).
 */
export function isLoopbackClient(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  return /^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(v4) || ip === '::1';
}
