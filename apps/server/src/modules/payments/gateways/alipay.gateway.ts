import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { AlipaySdk } from 'alipay-sdk';
import type {
  NotificationInput,
  PaymentGateway,
  PaymentQuery,
  PaymentRequest,
  RefundRequest,
  RefundResult,
  Verification,
  VerifiedNotification,
} from './gateway.ts';

/**
 * Our side of Alipay (open platform, API v1 gateway, public-key mode, RSA2 only), through the official alipay-sdk:
 * phone-browser payment (alipay.trade.wap.pay), the asynchronous notification, the active query
 * (alipay.trade.query) and refunds (alipay.trade.refund, confirmed by alipay.trade.fastpay.refund.query).
 */
export interface AlipayGatewayOptions {
  appId: string;
  /** The app's private key: PEM (PKCS#8 or PKCS#1), or the bare base64 Alipay's key tool prints. */
  privateKey: string;
  /** Alipay's public key (not the app's own), PEM or bare base64, from the app's page on the open platform. */
  alipayPublicKey: string;
  /** The gateway URL, e.g. https://openapi.alipay.com/gateway.do. */
  gateway: string;
  /** The seller's Alipay user id (2088…): when set, a notification for another seller is refused. */
  sellerId?: string;
  now?: () => Date;
}

const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);
// What a notification must carry before anything else is looked at.
const REQUIRED_FIELDS = [
  'sign',
  'sign_type',
  'app_id',
  'out_trade_no',
  'trade_no',
  'total_amount',
  'trade_status',
];
// Alipay's subject may not hold these (they would break its own form encoding).
const SUBJECT_FORBIDDEN = /[/=&]/g;
const SUBJECT_MAX = 256;

// ---- money: integers of cents in, Alipay's yuan strings out, never through a float ----

/** 1234 → "12.34". */
export function yuanOf(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`amount ${cents} is not whole cents`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "12.34" → 1234, "20" → 2000, "0.5" → 50; anything else (signs, exponents, a third decimal) → undefined. */
export function centsOf(yuan: string): number | undefined {
  const match = /^(0|[1-9][0-9]{0,8})(?:\.([0-9]{1,2}))?$/.exec(yuan);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

// ---- time: Alipay reads every time as China time (UTC+8), whatever the server's zone ----

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** yyyy-MM-dd HH:mm:ss in China time. */
export function alipayTime(at: Date): string {
  return new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

// ---- keys: the SDK parses them by string surgery, so hand it one known shape ----

function keyFromText(text: string, kind: 'private' | 'public'): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN'))
    return kind === 'private' ? createPrivateKey(trimmed) : createPublicKey(trimmed);
  // Alipay's key tool prints bare base64: PKCS#8 (or PKCS#1) for the private key, SPKI for the public one.
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64');
  if (kind === 'public') return createPublicKey({ key: der, format: 'der', type: 'spki' });
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  }
}

/**
 * The key as PEM the SDK accepts (PKCS#8 private, SPKI public), checked to be an RSA key of at least 2048 bits.
 * The error names the setting, never the key's text.
 */
function normalizeKey(text: string, kind: 'private' | 'public', setting: string): string {
  if (kind === 'public' && text.includes('PRIVATE KEY'))
    throw new Error(`${setting} holds a private key: it must be Alipay's public key`);
  let key: KeyObject;
  try {
    key = keyFromText(text, kind);
  } catch {
    throw new Error(`${setting} is not a readable RSA ${kind} key (PEM or base64)`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`${setting} is not an RSA key (RSA2 needs one)`);
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
    throw new Error(`${setting} is shorter than 2048 bits (RSA2 keys are 2048)`);
  // Trimmed: the SDK drops the END line only when it is the very last line.
  const pem =
    kind === 'private'
      ? key.export({ format: 'pem', type: 'pkcs8' })
      : key.export({ format: 'pem', type: 'spki' });
  return String(pem).trim();
}

/** The app's public key, derived from its private key: pasting it where Alipay's belongs is a common mistake. */
const publicOf = (privatePem: string) =>
  String(createPublicKey(privatePem).export({ format: 'pem', type: 'spki' })).trim();

// ---- notifications ----

function readForm(body: string): Record<string, string> | string {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    // A repeated field would let the signed value and the read value differ.
    if (Object.hasOwn(fields, name)) return `field ${name} repeated`;
    fields[name] = value;
  }
  return fields;
}

const withoutSign = (fields: Record<string, unknown>) => {
  const { sign: _sign, ...rest } = fields;
  return rest;
};

type AlipayResponse = Record<string, unknown> & {
  code?: string;
  msg?: string;
  sub_code?: string;
  sub_msg?: string;
};

const summary = (answer: AlipayResponse) =>
  [answer.code, answer.msg, answer.sub_code, answer.sub_msg].filter((part) => part !== undefined).join(' ');

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function createAlipayGateway(opts: AlipayGatewayOptions): PaymentGateway {
  const now = opts.now ?? (() => new Date());
  const privateKey = normalizeKey(opts.privateKey, 'private', 'the Alipay app private key');
  const alipayPublicKey = normalizeKey(opts.alipayPublicKey, 'public', 'the Alipay public key');
  if (alipayPublicKey === publicOf(privateKey))
    throw new Error(
      "the Alipay public key is the app's own public key: use the Alipay public key of the app",
    );
  const gatewayUrl = new URL(opts.gateway);
  if (gatewayUrl.protocol !== 'https:' && gatewayUrl.protocol !== 'http:')
    throw new Error(`the Alipay gateway ${opts.gateway} is not an http(s) URL`);

  const sdk = new AlipaySdk({
    appId: opts.appId,
    privateKey,
    keyType: 'PKCS8',
    alipayPublicKey,
    gateway: gatewayUrl.toString(),
    signType: 'RSA2',
    // Keep Alipay's own field names: they are what we record with the order.
    camelcase: false,
  });

  // The SDK stamps requests with the server's local time; Alipay reads China time, so we give it ours.
  const stamp = () => ({ timestamp: alipayTime(now()) });

  /** One API call; the SDK checks the answer's signature with Alipay's public key before we read it. */
  async function call(method: string, bizContent: Record<string, unknown>): Promise<AlipayResponse> {
    return (await sdk.exec(method, { bizContent, ...stamp() }, { validateSign: true })) as AlipayResponse;
  }

  function paidNotification(fields: Record<string, unknown>, merchantId: string) {
    const amount = centsOf(String(fields.total_amount ?? ''));
    if (amount === undefined) return `total_amount ${String(fields.total_amount)} is not an amount in yuan`;
    const state = String(fields.trade_status);
    const notification: VerifiedNotification = {
      orderNo: String(fields.out_trade_no),
      tradeNo: String(fields.trade_no),
      amount,
      merchantId,
      paid: PAID_STATES.has(state),
      state,
      raw: withoutSign(fields),
    };
    return notification;
  }

  /** Whether the refund under this number reached the payer, when the refund call could not say. */
  async function refundConfirmed(request: RefundRequest) {
    const answer = await call('alipay.trade.fastpay.refund.query', {
      out_trade_no: request.orderNo,
      trade_no: request.tradeNo,
      out_request_no: request.refundNo,
    });
    return { done: answer.code === '10000' && answer.refund_status === 'REFUND_SUCCESS', answer };
  }

  return {
    name: 'alipay',
    merchantId: opts.appId,
    // WeChat's browser does not open Alipay's cashier.
    worksInWechat: false,

    async createPayment(order: PaymentRequest) {
      if (!Number.isSafeInteger(order.amount) || order.amount < 1)
        throw new Error(`order ${order.orderNo}: amount ${order.amount} is not a positive number of cents`);
      const subject =
        order.subject.replace(SUBJECT_FORBIDDEN, ' ').trim().slice(0, SUBJECT_MAX) || order.orderNo;
      // A GET URL to the gateway with the signed request in its query: the browser is sent there (302) or the
      // native bridge opens it.
      const url = sdk.pageExecute('alipay.trade.wap.pay', 'GET', {
        bizContent: {
          out_trade_no: order.orderNo,
          total_amount: yuanOf(order.amount),
          subject,
          product_code: 'QUICK_WAP_WAY',
          time_expire: alipayTime(order.expiresAt),
          quit_url: order.returnUrl,
        },
        returnUrl: order.returnUrl,
        notifyUrl: order.notifyUrl,
        ...stamp(),
      });
      return order.client === 'web' ? { kind: 'redirect', url } : { kind: 'app', payUrl: url };
    },

    async verifyNotification(input: NotificationInput): Promise<Verification> {
      const fields = readForm(input.body);
      if (typeof fields === 'string') return { ok: false, reason: fields };
      for (const name of REQUIRED_FIELDS)
        if (!fields[name]) return { ok: false, reason: `field ${name} missing` };
      // The SDK would verify an RSA (SHA-1) signature as readily as RSA2: only RSA2 gets that far.
      if (fields.sign_type !== 'RSA2')
        return { ok: false, reason: `sign_type ${fields.sign_type} refused: RSA2 only` };
      let signed = false;
      try {
        // V2 verifies the values as received: the body is already form-decoded, and decoding twice breaks on '%'.
        signed = sdk.checkNotifySignV2(fields);
      } catch {
        signed = false;
      }
      if (!signed)
        return { ok: false, reason: "bad signature (not Alipay's key, or the fields were changed)" };
      if (fields.app_id !== opts.appId) return { ok: false, reason: `app_id ${fields.app_id} is not ours` };
      if (opts.sellerId && fields.seller_id !== opts.sellerId)
        return { ok: false, reason: `seller_id ${fields.seller_id ?? '(missing)'} is not ours` };
      const notification = paidNotification(fields, fields.app_id);
      if (typeof notification === 'string') return { ok: false, reason: notification };
      return { ok: true, notification };
    },

    acknowledge(ok: boolean) {
      // Alipay stops retrying on exactly `success`; anything else makes it retry.
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' };
    },

    async queryPayment(orderNo: string): Promise<PaymentQuery> {
      const answer = await call('alipay.trade.query', { out_trade_no: orderNo });
      const raw: Record<string, unknown> = { ...answer };
      if (answer.code === '40004' && answer.sub_code === 'ACQ.TRADE_NOT_EXIST')
        return { state: 'not_found', raw };
      if (answer.code !== '10000') throw new Error(`alipay.trade.query ${orderNo}: ${summary(answer)}`);
      if (answer.out_trade_no !== orderNo)
        throw new Error(`alipay.trade.query ${orderNo}: the answer is for ${String(answer.out_trade_no)}`);
      const state = String(answer.trade_status);
      if (PAID_STATES.has(state)) {
        const notification = paidNotification(answer, opts.appId);
        if (typeof notification === 'string')
          throw new Error(`alipay.trade.query ${orderNo}: ${notification}`);
        return { state: 'paid', notification, raw };
      }
      if (state === 'WAIT_BUYER_PAY') return { state: 'unpaid', raw };
      if (state === 'TRADE_CLOSED') return { state: 'closed', raw };
      throw new Error(`alipay.trade.query ${orderNo}: unknown trade_status ${state}`);
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      if (!Number.isSafeInteger(request.amount) || request.amount < 1 || request.amount > request.total)
        return {
          state: 'failed',
          reason: `refund of ${request.amount} cents out of ${request.total}`,
          raw: {},
        };
      let answer: AlipayResponse;
      try {
        answer = await call('alipay.trade.refund', {
          out_trade_no: request.orderNo,
          trade_no: request.tradeNo,
          refund_amount: yuanOf(request.amount),
          out_request_no: request.refundNo,
          refund_reason: request.reason.slice(0, 256),
        });
      } catch (err) {
        // No answer we can believe (network, time-out, a signature that does not verify): the refund may or may
        // not have been made. Asking again under the same refundNo is safe, so this is not final.
        return { state: 'processing', raw: { error: errorMessage(err) } };
      }
      const raw: Record<string, unknown> = { ...answer };
      // Alipay's system errors say "call again with the same parameters": not an answer either way.
      if (answer.code === '20000' || answer.sub_code === 'ACQ.SYSTEM_ERROR')
        return { state: 'processing', raw };
      if (answer.code !== '10000') return { state: 'failed', reason: summary(answer), raw };
      if (answer.fund_change === 'Y') return { state: 'success', raw };
      // fund_change N: no money moved on this call, which is also Alipay's answer to a repeat of a refund that
      // already went through. Its documentation says to confirm with the refund query.
      try {
        const confirmed = await refundConfirmed(request);
        const both = { ...raw, refund_query: confirmed.answer };
        return confirmed.done ? { state: 'success', raw: both } : { state: 'processing', raw: both };
      } catch (err) {
        return { state: 'processing', raw: { ...raw, refund_query_error: errorMessage(err) } };
      }
    },
  };
}
