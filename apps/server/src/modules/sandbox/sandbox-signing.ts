import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The sandbox gateway's published notification format: a form body with these fields and `sign`, the
 * lowercase hex HMAC-SHA256 under the merchant's key of `amount=..&merchantId=..&nonce=..&orderNo=..&
 * timestamp=..&tradeNo=..` (fields in this order, values as sent). Each delivery is signed afresh with a new
 * timestamp (Unix seconds) and nonce.
 */
export const SIGNED_FIELDS = ['amount', 'merchantId', 'nonce', 'orderNo', 'timestamp', 'tradeNo'] as const;
export type NotificationFields = Record<(typeof SIGNED_FIELDS)[number], string>;

// Every value is from a small alphabet, so the string signed is unambiguous.
const FIELD_PATTERNS: Record<(typeof SIGNED_FIELDS)[number], RegExp> = {
  amount: /^[1-9][0-9]{0,9}$/,
  merchantId: /^[A-Za-z0-9_-]{1,64}$/,
  nonce: /^[A-Za-z0-9]{16,64}$/,
  orderNo: /^[A-Za-z0-9]{1,64}$/,
  timestamp: /^[0-9]{9,11}$/,
  tradeNo: /^[A-Za-z0-9]{1,64}$/,
};

const stringToSign = (fields: NotificationFields) => SIGNED_FIELDS.map((k) => `${k}=${fields[k]}`).join('&');

export const signFields = (key: Buffer, fields: NotificationFields) =>
  createHmac('sha256', key).update(stringToSign(fields), 'utf8').digest('hex');

/** Timing-safe comparison of a claimed signature with the one the key gives. */
export function signatureMatches(key: Buffer, fields: NotificationFields, sign: string): boolean {
  const expected = Buffer.from(signFields(key, fields), 'hex');
  const given = /^[0-9a-f]{64}$/.test(sign) ? Buffer.from(sign, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The signed fields of a received body, or why they are malformed. */
export function readFields(
  raw: Record<string, unknown>,
): { fields: NotificationFields; sign: string } | string {
  const fields = {} as NotificationFields;
  for (const name of SIGNED_FIELDS) {
    const value = raw[name];
    if (typeof value !== 'string' || !FIELD_PATTERNS[name].test(value))
      return `field ${name} missing or malformed`;
    fields[name] = value;
  }
  const sign = raw.sign;
  if (typeof sign !== 'string') return 'field sign missing';
  return { fields, sign };
}

/** A signed notification body, as the sandbox sends it. */
export function signedNotification(
  key: Buffer,
  payment: { orderNo: string; tradeNo: string; amount: number; merchantId: string },
  now: Date,
): string {
  const fields: NotificationFields = {
    amount: String(payment.amount),
    merchantId: payment.merchantId,
    nonce: randomBytes(16).toString('hex'),
    orderNo: payment.orderNo,
    timestamp: String(Math.floor(now.getTime() / 1000)),
    tradeNo: payment.tradeNo,
  };
  return new URLSearchParams({ ...fields, sign: signFields(key, fields) }).toString();
}
