import { type PayConfig, type PaySubType, payAmountOf } from '@yueman/contract';
import { bookPath, positiveId, readerPath, userPath } from '../../lib/paths.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/** Prices are in cents and shown in yuan (spec section 9): 3000 → '30', 2850 → '28.50'. */
export const yuan = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** A discount below 10 is shown as 'N折' (9.5 → '9.5折'); 10 or more is no discount. */
export const discountLabel = (discount: number) => (discount > 0 && discount < 10 ? `${discount}折` : '');

/** What the payer pays for a pack through a channel, in cents: the contract's rule, which the server checks. */
export const payAmount = (pack: PayConfig, channel: PaySubType) =>
  payAmountOf(pack.amountLevel, channel.discount);

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

/**
 * Where the gateway sends the browser back after paying (vueReturnUrl), always on this site: the chapter the
 * reader came from when the address names one (bookId and number), the book's page when only bookId is known
 * (its 'continue reading' prompt leads back to the chapter), else the account centre, which shows the
 * after-payment dialog and the new balance (always, inside WeChat).
 */
export function returnPath(search: URLSearchParams, inWechat = false) {
  // WeChat's browser is sent out to read (the 'open in your browser' prompt): its readers come back to their account.
  if (inWechat) return userPath();
  const bookId = positiveId(search.get('bookId'));
  const number = positiveId(search.get('number'));
  if (bookId && number) return readerPath(bookId, number);
  if (bookId) return bookPath(bookId);
  return userPath();
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
