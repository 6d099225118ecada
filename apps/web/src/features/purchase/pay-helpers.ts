import type { PayConfig, PaySubType } from '@yueman/contract';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/** Prices are in cents and shown in yuan (spec section 9): 3000 → '30', 2850 → '28.50'. */
export const yuan = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** A discount below 10 is shown as 'N折' (9.5 → '9.5折'); 10 or more is no discount. */
export const discountLabel = (discount: number) => (discount > 0 && discount < 10 ? `${discount}折` : '');

/**
 * What the payer pays through a channel, in cents: amountLevel × discount / 10 rounded to the cent, half up
 * (docs/contract.md section 3). Worked in whole tenths of a 折 (9.5 → 95), as the server does, so no floating-point
 * remainder can round the other way and make the server refuse the amount.
 */
export const payAmount = (pack: PayConfig, channel: PaySubType) =>
  channel.discount > 0 && channel.discount < 10
    ? Math.floor((pack.amountLevel * Math.round(channel.discount * 10) + 50) / 100)
    : pack.amountLevel;

export const CHANNEL_GROUPS = [
  { code: 'alipay', label: '支付宝' },
  { code: 'wechat_pay', label: '微信支付' },
  { code: 'bank', label: '银行卡' },
] as const;

/** Channels grouped by superior code, in the order alipay, wechat_pay, bank; empty groups left out. */
export const groupChannels = (channels: readonly PaySubType[]) =>
  CHANNEL_GROUPS.map((g) => ({ ...g, channels: channels.filter((c) => c.superiorCode === g.code) })).filter(
    (g) => g.channels.length > 0,
  );

const positive = (raw: string | null) => (raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? raw : null);

/**
 * Where the gateway sends the browser back after paying (vueReturnUrl), always on this site: the chapter the
 * reader came from when the address names one (bookId and number), the book's page when only bookId is known
 * (its 'continue reading' prompt leads back to the chapter), else the account centre, which shows the
 * after-payment dialog and the new balance.
 */
export function returnPath(search: URLSearchParams) {
  const bookId = positive(search.get('bookId'));
  const number = positive(search.get('number'));
  if (bookId && number) return `/book/read/${bookId}/${number}`;
  if (bookId) return `/book/${bookId}`;
  return '/user';
}

const originOf = (base: string) => {
  try {
    return base ? new URL(base, location.origin).origin : location.origin;
  } catch {
    return location.origin;
  }
};

/** The dynamic API's origin: this page's unless the runtime config moved it elsewhere. */
export const dynamicOrigin = () => originOf(runtimeConfig.dynamicApiBase);

/**
 * The pay page frames only this site or the dynamic API's host (where the cashier is): any other address is
 * refused, so /user/purchase/pay cannot be used to show a stranger's page under our name.
 */
export function safeGoUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw, location.origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password) return null;
    return url.origin === location.origin || url.origin === dynamicOrigin() ? url.href : null;
  } catch {
    return null;
  }
}
