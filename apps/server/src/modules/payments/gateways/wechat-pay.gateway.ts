import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import type {
  NotificationInput,
  PaymentGateway,
  PaymentQuery,
  PaymentRequest,
  PaymentStart,
  RefundRequest,
  RefundResult,
  RefundVerification,
  Verification,
  VerifiedNotification,
} from './gateway.ts';
import {
  type BridgeParams,
  createWechatJsapi,
  type WechatJsapi,
  type WechatJsapiOptions,
} from './wechat-jsapi.ts';

// WeChat Pay API v3, as its documentation describes it (pay.weixin.qq.com/doc/v3/merchant): requests signed with
// the merchant's RSA key (SHA256withRSA over method, path and query, timestamp, nonce and body), answers and
// notifications signed with WeChat Pay's key (over timestamp, nonce and body) and checked against the WeChat Pay
// public key named by Wechatpay-Serial, notification resources sealed with AEAD_AES_256_GCM under the APIv3 key.
// node:crypto and fetch do all of it. wechatpay-axios-plugin would add axios for the same few calls, and it leaves
// non-2xx answers unchecked, while `not_found` must rest on a signed ORDER_NOT_EXIST.

export const DEFAULT_WECHATPAY_BASE_URL = 'https://api.mch.weixin.qq.com';
const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';
// The documented clock tolerance, both ways: WeChat Pay refuses our requests past it, we refuse its messages.
const MAX_SKEW_SECONDS = 300;
const REQUEST_TIMEOUT_MS = 10_000;
const GCM_TAG_BYTES = 16;
// The H5 order's `description` is at most 127 characters.
const DESCRIPTION_MAX = 127;

export interface WechatPayOptions {
  mchid: string;
  appid: string;
  /** Serial number of our merchant API certificate (商户API证书序列号). */
  serial: string;
  /** Our merchant API private key (apiclient_key.pem). */
  privateKey: string;
  /** The APIv3 key set in the merchant platform: 32 characters. */
  apiV3Key: string;
  /** The WeChat Pay public key (微信支付公钥, PEM) and its id (PUB_KEY_ID_…). */
  platformPublicKey: string;
  platformPublicKeyId: string;
  baseUrl?: string;
  /** Paying inside WeChat (JSAPI): the official account's AppSecret for its web OAuth; absent, H5 only. */
  jsapi?: WechatJsapiOptions;
  now?: () => Date;
}

/** A call to WeChat Pay that failed or whose answer cannot be believed; `code` is WeChat Pay's when it gave one. */
export class WechatPayError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WechatPayError';
  }
}

/** A refund's outcome as WeChat Pay notified it (REFUND.SUCCESS, REFUND.CLOSED, REFUND.ABNORMAL). */
export interface WechatPayGateway extends PaymentGateway {
  queryPayment(orderNo: string): Promise<PaymentQuery>;
  refund(request: RefundRequest): Promise<RefundResult>;
  verifyRefundNotification(input: NotificationInput): Promise<RefundVerification>;
  /** JSAPI, when configured: the official account's OAuth and the bridge's signature. */
  readonly jsapi?: WechatJsapi;
  /** A JSAPI order for the payer with this openid, its prepay_id signed for WeixinJSBridge. */
  prepayJsapi(order: PaymentRequest, openid: string): Promise<BridgeParams>;
}

type Json = Record<string, unknown>;
type Opened = { ok: true; eventType: string; resource: Json } | { ok: false; reason: string };

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (o: Json, key: string) => (typeof o[key] === 'string' ? (o[key] as string) : undefined);
const cents = (o: unknown, key: string) => {
  const v = isObject(o) ? o[key] : undefined;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
};
const parseJson = (body: string): Json | undefined => {
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
};
/** Attacker-controlled text quoted in a reason: short and printable. */
const quote = (v: string) => JSON.stringify(v.slice(0, 64));

/** RFC 3339 in China time, as WeChat Pay writes its times: 2026-11-01T08:15:00+08:00. */
function chinaRfc3339(at: Date): string {
  const shifted = new Date(at.getTime() + 8 * 3600_000);
  return `${shifted.toISOString().slice(0, 19)}+08:00`;
}

/** Reads each key once at start-up, saying plainly which one is wrong; never echoes key material. */
function loadKeys(opts: WechatPayOptions) {
  for (const name of ['mchid', 'appid', 'serial', 'platformPublicKeyId'] as const)
    if (!opts[name]?.trim()) throw new Error(`WeChat Pay: ${name} is empty`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(opts.privateKey);
  } catch {
    throw new Error('WeChat Pay: the merchant private key is not a PEM private key (apiclient_key.pem)');
  }
  if (privateKey.asymmetricKeyType !== 'rsa' || (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
    throw new Error('WeChat Pay: the merchant private key is not an RSA key of 2048 bits or more');
  if (/PRIVATE KEY/.test(opts.platformPublicKey))
    throw new Error(
      'WeChat Pay: the platform public key setting holds a private key; it takes the WeChat Pay public key',
    );
  let platformKey: KeyObject;
  try {
    platformKey = createPublicKey(opts.platformPublicKey);
  } catch {
    throw new Error('WeChat Pay: the platform public key is not a PEM public key (微信支付公钥)');
  }
  if (platformKey.asymmetricKeyType !== 'rsa')
    throw new Error('WeChat Pay: the platform public key is not an RSA key');
  if (platformKey.equals(createPublicKey(privateKey)))
    throw new Error(
      "WeChat Pay: the platform public key is our merchant key's own public half, not WeChat Pay's",
    );
  const apiV3Key = Buffer.from(opts.apiV3Key, 'utf8');
  if (apiV3Key.length !== 32) throw new Error('WeChat Pay: the APIv3 key must be exactly 32 characters');
  return { privateKey, platformKey, apiV3Key };
}

export function createWechatPayGateway(opts: WechatPayOptions): WechatPayGateway {
  const keys = loadKeys(opts);
  const now = opts.now ?? (() => new Date());
  const baseUrl = (opts.baseUrl ?? DEFAULT_WECHATPAY_BASE_URL).replace(/\/+$/, '');
  const jsapi = opts.jsapi
    ? createWechatJsapi({ ...opts.jsapi, appid: opts.appid, privateKey: keys.privateKey, now })
    : undefined;

  /** What an H5 and a JSAPI order both say: who is paid, for what, how much, until when, notified where. */
  function orderFields(order: PaymentRequest): Json {
    if (!Number.isSafeInteger(order.amount) || order.amount < 1)
      throw new WechatPayError(`WeChat Pay: amount ${order.amount} is not a positive number of fen`);
    return {
      appid: opts.appid,
      mchid: opts.mchid,
      description: Array.from(order.subject.trim() || order.orderNo)
        .slice(0, DESCRIPTION_MAX)
        .join(''),
      out_trade_no: order.orderNo,
      time_expire: chinaRfc3339(order.expiresAt),
      notify_url: order.notifyUrl,
      amount: { total: order.amount, currency: 'CNY' },
    };
  }

  /** Checks WeChat Pay's signature on a message (an answer or a notification). `absent`: no signature at all. */
  function checkSignature(
    header: (name: string) => string | undefined,
    body: string,
  ): 'valid' | 'absent' | string {
    const timestamp = header('wechatpay-timestamp');
    const nonce = header('wechatpay-nonce');
    const signature = header('wechatpay-signature');
    const serial = header('wechatpay-serial');
    if (!timestamp && !nonce && !signature && !serial) return 'absent';
    if (!timestamp || !nonce || !signature || !serial)
      return 'Wechatpay-Timestamp/Nonce/Signature/Serial incomplete';
    // Only the key we were given is trusted; a platform certificate serial means the switch to the WeChat Pay
    // public key is not finished in the merchant platform.
    if (serial !== opts.platformPublicKeyId) return `unknown Wechatpay-Serial ${quote(serial)}`;
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return 'Wechatpay-Signature is not base64';
    const message = Buffer.from(`${timestamp}\n${nonce}\n${body}\n`, 'utf8');
    if (!verify('sha256', message, keys.platformKey, Buffer.from(signature, 'base64')))
      return 'bad signature';
    if (!/^[0-9]{1,12}$/.test(timestamp)) return 'Wechatpay-Timestamp is not Unix seconds';
    const skew = Math.floor(now().getTime() / 1000) - Number(timestamp);
    if (Math.abs(skew) > MAX_SKEW_SECONDS) return `stale Wechatpay-Timestamp (${skew} s off)`;
    return 'valid';
  }

  function authorization(method: string, pathAndQuery: string, body: string) {
    const timestamp = String(Math.floor(now().getTime() / 1000));
    const nonce = randomBytes(16).toString('hex').toUpperCase();
    const message = `${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`;
    const signature = sign('sha256', Buffer.from(message, 'utf8'), keys.privateKey).toString('base64');
    return `${AUTH_SCHEME} mchid="${opts.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${opts.serial}"`;
  }

  /**
   * One signed call. A 2xx answer must carry a valid signature; another answer is believed only if it carries
   * one (WeChat Pay signs every answer to a request whose signature it accepted, so an unsigned one is a refusal
   * of ours, like SIGN_ERROR, or not WeChat Pay's at all).
   */
  async function call(method: 'GET' | 'POST', path: string, payload?: Json) {
    const url = new URL(`${baseUrl}${path}`);
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const headers: Record<string, string> = {
      Authorization: authorization(method, `${url.pathname}${url.search}`, body),
      Accept: 'application/json',
      'User-Agent': 'yueman-server',
      // Asks for answers signed with the WeChat Pay public key, also while the merchant switches to it.
      'Wechatpay-Serial': opts.platformPublicKeyId,
    };
    if (method === 'POST') headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: method === 'POST' ? body : undefined,
        redirect: 'error',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new WechatPayError(`WeChat Pay ${method} ${path}: ${(err as Error).message}`);
    }
    const answer = await res.text();
    const signed = checkSignature((name) => res.headers.get(name) ?? undefined, answer);
    const json = parseJson(answer) ?? {};
    const code = text(json, 'code');
    if (signed !== 'valid' && (res.ok || signed !== 'absent'))
      throw new WechatPayError(`WeChat Pay ${method} ${path}: answer refused: ${signed}`, res.status, code);
    return { status: res.status, ok: res.ok, signed: signed === 'valid', json, code };
  }

  const failure = (what: string, a: { status: number; json: Json; code?: string }) =>
    new WechatPayError(
      `WeChat Pay ${what}: HTTP ${a.status} ${a.code ?? ''} ${text(a.json, 'message') ?? ''}`.trim(),
      a.status,
      a.code,
    );

  function decrypt(resource: Json): Json | undefined {
    const ciphertext = text(resource, 'ciphertext');
    const nonce = text(resource, 'nonce');
    const associated = text(resource, 'associated_data') ?? '';
    if (!ciphertext || !nonce) return undefined;
    const sealed = Buffer.from(ciphertext, 'base64');
    if (sealed.length <= GCM_TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', keys.apiV3Key, Buffer.from(nonce, 'utf8'));
      decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES));
      decipher.setAAD(Buffer.from(associated, 'utf8'));
      const plain = Buffer.concat([decipher.update(sealed.subarray(0, -GCM_TAG_BYTES)), decipher.final()]);
      return parseJson(plain.toString('utf8'));
    } catch {
      return undefined;
    }
  }

  /** A notification's signature, then its envelope, then its sealed resource, in that order. */
  function open(input: NotificationInput, originalType: 'transaction' | 'refund'): Opened {
    const header = (name: string) => {
      const v = input.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const signed = checkSignature(header, input.body);
    if (signed === 'absent') return { ok: false, reason: 'no Wechatpay-Signature' };
    if (signed !== 'valid') return { ok: false, reason: signed };
    const envelope = parseJson(input.body);
    const resource = envelope?.resource;
    if (!envelope || !isObject(resource) || envelope.resource_type !== 'encrypt-resource')
      return { ok: false, reason: 'body is not an encrypt-resource notification' };
    if (resource.algorithm !== 'AEAD_AES_256_GCM')
      return { ok: false, reason: `resource algorithm ${quote(String(resource.algorithm))}` };
    if (resource.original_type !== originalType)
      return {
        ok: false,
        reason: `resource is ${quote(String(resource.original_type))}, not ${originalType}`,
      };
    const opened = decrypt(resource);
    if (!opened) return { ok: false, reason: 'resource does not decrypt (tampered, or another APIv3 key)' };
    return { ok: true, eventType: text(envelope, 'event_type') ?? '', resource: opened };
  }

  /** A transaction (decrypted notification or query answer) read as ours, or why it is not. */
  function readTransaction(t: Json): Verification {
    const mchid = text(t, 'mchid');
    if (mchid !== opts.mchid) return { ok: false, reason: `mchid ${quote(String(mchid))} is not ours` };
    const appid = text(t, 'appid');
    if (appid !== opts.appid) return { ok: false, reason: `appid ${quote(String(appid))} is not ours` };
    const orderNo = text(t, 'out_trade_no');
    const state = text(t, 'trade_state');
    const amount = cents(t.amount, 'total');
    if (!orderNo || !state || amount === undefined)
      return { ok: false, reason: 'out_trade_no, trade_state or amount.total missing' };
    const currency = isObject(t.amount) ? t.amount.currency : undefined;
    if (currency !== undefined && currency !== 'CNY')
      return { ok: false, reason: `currency ${quote(String(currency))}` };
    const paid = state === 'SUCCESS';
    const tradeNo = text(t, 'transaction_id');
    if (paid && !tradeNo) return { ok: false, reason: 'a paid transaction without transaction_id' };
    const notification: VerifiedNotification = {
      orderNo,
      tradeNo: tradeNo ?? '',
      amount,
      merchantId: mchid,
      paid,
      state,
      raw: t,
    };
    return { ok: true, notification };
  }

  // WeChat Pay's refund states: PROCESSING and ABNORMAL (the bank refused the money back; the operator settles it
  // in the merchant platform) are not final, so neither frees the order for another refund.
  const refundState = (status: string | undefined): RefundResult['state'] | undefined =>
    status === 'SUCCESS'
      ? 'success'
      : status === 'PROCESSING' || status === 'ABNORMAL'
        ? 'processing'
        : status === 'CLOSED'
          ? 'failed'
          : undefined;

  return {
    name: 'wechat_pay',
    merchantId: opts.mchid,

    worksInWechat: jsapi !== undefined,

    /**
     * H5 payment, for phone browsers outside WeChat: WeChat Pay checks that the payer opens h5_url from the
     * address given as payer_client_ip and from a page of the H5 domain registered in the merchant platform, and
     * h5_url lives 5 minutes (asking again with the same fields gives a fresh one). Inside WeChat, H5 is refused
     * by WeChat Pay: the browser goes first to the official account's OAuth for the payer's openid, which comes
     * back to `resumeUrl` (see prepayJsapi).
     */
    async createPayment(order: PaymentRequest): Promise<PaymentStart> {
      if (order.inWechat) {
        if (!jsapi || !order.resumeUrl)
          throw new WechatPayError('WeChat Pay: paying inside WeChat needs JSAPI (WECHATPAY_APPSECRET)');
        // The state is the order number: the return checks the session owns that order, and a code swapped in by
        // someone else only names a payer WeChat's cashier refuses to anyone but that payer.
        return { kind: 'redirect', url: jsapi.authorizeUrl(order.resumeUrl, order.orderNo) };
      }
      const answer = await call('POST', '/v3/pay/transactions/h5', {
        ...orderFields(order),
        scene_info: { payer_client_ip: order.clientIp ?? '127.0.0.1', h5_info: { type: 'Wap' } },
      });
      if (!answer.ok) throw failure(`H5 order ${order.orderNo}`, answer);
      const h5Url = text(answer.json, 'h5_url');
      if (!h5Url || !/^https?:\/\//.test(h5Url))
        throw new WechatPayError(
          `WeChat Pay H5 order ${order.orderNo}: answer without h5_url`,
          answer.status,
        );
      const url = `${h5Url}${h5Url.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(order.returnUrl)}`;
      return order.client === 'web' ? { kind: 'redirect', url } : { kind: 'app', payUrl: url };
    },

    jsapi,

    async prepayJsapi(order: PaymentRequest, openid: string): Promise<BridgeParams> {
      if (!jsapi) throw new WechatPayError('WeChat Pay: JSAPI is not configured (WECHATPAY_APPSECRET)');
      // Asked again for the same order (a reload), WeChat Pay answers the same prepay_id while the fields match.
      const answer = await call('POST', '/v3/pay/transactions/jsapi', {
        ...orderFields(order),
        payer: { openid },
      });
      if (!answer.ok) throw failure(`JSAPI order ${order.orderNo}`, answer);
      const prepayId = text(answer.json, 'prepay_id');
      if (!prepayId || !/^[A-Za-z0-9_-]{1,64}$/.test(prepayId))
        throw new WechatPayError(`WeChat Pay JSAPI order ${order.orderNo}: answer without prepay_id`);
      return jsapi.bridgeParams(prepayId);
    },

    async verifyNotification(input: NotificationInput): Promise<Verification> {
      const opened = open(input, 'transaction');
      if (!opened.ok) return opened;
      if (opened.eventType !== 'TRANSACTION.SUCCESS')
        return { ok: false, reason: `event_type ${quote(opened.eventType)} is not a payment` };
      return readTransaction(opened.resource);
    },

    // v3 reads the status only: 200 or 204 with no body stops the retries; 4xx or 5xx with this body asks again.
    acknowledge(success: boolean) {
      return success
        ? { status: 204, contentType: 'application/json; charset=utf-8', body: '' }
        : {
            status: 500,
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify({ code: 'FAIL', message: '失败' }),
          };
    },

    async queryPayment(orderNo: string): Promise<PaymentQuery> {
      const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(opts.mchid)}`;
      const answer = await call('GET', path);
      if (answer.status === 404 && answer.code === 'ORDER_NOT_EXIST') {
        if (!answer.signed)
          throw new WechatPayError(`WeChat Pay query ${orderNo}: unsigned ORDER_NOT_EXIST`, 404);
        return { state: 'not_found', raw: answer.json };
      }
      if (!answer.ok) throw failure(`query ${orderNo}`, answer);
      const read = readTransaction(answer.json);
      if (!read.ok) throw new WechatPayError(`WeChat Pay query ${orderNo}: ${read.reason}`);
      if (read.notification.orderNo !== orderNo)
        throw new WechatPayError(
          `WeChat Pay query ${orderNo}: answer is about ${quote(read.notification.orderNo)}`,
        );
      switch (read.notification.state) {
        case 'SUCCESS':
          return { state: 'paid', notification: read.notification, raw: answer.json };
        case 'NOTPAY':
        case 'USERPAYING':
          return { state: 'unpaid', raw: answer.json };
        // REFUND: paid, then refunded in full or part; for an order our books do not have as paid that was done
        // outside this service, and crediting it would give coins for money already returned.
        case 'CLOSED':
        case 'REVOKED':
        case 'PAYERROR':
        case 'REFUND':
          return { state: 'closed', raw: answer.json };
        default:
          throw new WechatPayError(
            `WeChat Pay query ${orderNo}: trade_state ${quote(String(read.notification.state))}`,
          );
      }
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      const answer = await call('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: request.orderNo,
        out_refund_no: request.refundNo,
        reason: Array.from(request.reason).slice(0, 80).join('') || undefined,
        notify_url: request.notifyUrl,
        amount: { refund: request.amount, total: request.total, currency: 'CNY' },
      });
      const what = `refund ${request.refundNo}`;
      // A business refusal (signed 4xx: NOT_ENOUGH, INVALID_REQUEST, …) moved no money; asking again with the same
      // refund number is always safe. A 5xx, a rate limit or an unsigned refusal leaves the outcome open: thrown.
      if (!answer.ok) {
        if (answer.signed && answer.status < 500 && answer.code !== 'FREQUENCY_LIMITED')
          return {
            state: 'failed',
            reason: `${answer.code}: ${text(answer.json, 'message') ?? ''}`,
            raw: answer.json,
          };
        throw failure(what, answer);
      }
      if (
        text(answer.json, 'out_refund_no') !== request.refundNo ||
        text(answer.json, 'out_trade_no') !== request.orderNo
      )
        throw new WechatPayError(`WeChat Pay ${what}: answer is about another refund or order`);
      const status = text(answer.json, 'status');
      const state = refundState(status);
      if (!state) throw new WechatPayError(`WeChat Pay ${what}: status ${quote(String(status))}`);
      return state === 'failed'
        ? { state, reason: `refund ${status}`, raw: answer.json }
        : { state, refundTradeNo: text(answer.json, 'refund_id'), raw: answer.json };
    },

    async verifyRefundNotification(input: NotificationInput): Promise<RefundVerification> {
      const opened = open(input, 'refund');
      if (!opened.ok) return opened;
      if (!opened.eventType.startsWith('REFUND.'))
        return { ok: false, reason: `event_type ${quote(opened.eventType)} is not a refund` };
      const r = opened.resource;
      const mchid = text(r, 'mchid');
      if (mchid !== opts.mchid) return { ok: false, reason: `mchid ${quote(String(mchid))} is not ours` };
      const orderNo = text(r, 'out_trade_no');
      const refundNo = text(r, 'out_refund_no');
      const refundTradeNo = text(r, 'refund_id');
      const amount = cents(r.amount, 'refund');
      const state = refundState(text(r, 'refund_status'));
      if (!orderNo || !refundNo || !refundTradeNo || amount === undefined || !state)
        return {
          ok: false,
          reason: 'out_trade_no, out_refund_no, refund_id, refund_status or amount.refund missing',
        };
      return { ok: true, refund: { orderNo, refundNo, refundTradeNo, state, amount, raw: r } };
    },
  };
}
