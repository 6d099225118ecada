// WeChat Pay (API v3) played on loopback for tests, from its documentation, with keys of its own: it checks our
// WECHATPAY2-SHA256-RSA2048 Authorization with the merchant's public key, signs every answer to an accepted request
// with its own platform key (the "WeChat Pay public key" it hands out with its id), seals notification resources
// with AEAD_AES_256_GCM under the APIv3 key, and retries notifications until answered 200 or 204. Its signing is
// written here again rather than imported from our adapter, so a mistake in one is caught by the other.
import {
  createCipheriv,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
  sign,
  verify,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOfficialAccountFake } from './wechat-mp-fake.ts';

export type TradeState = 'NOTPAY' | 'USERPAYING' | 'SUCCESS' | 'CLOSED' | 'REVOKED' | 'PAYERROR' | 'REFUND';

const STATE_DESC: Record<TradeState, string> = {
  NOTPAY: '订单未支付',
  USERPAYING: '用户支付中',
  SUCCESS: '支付成功',
  CLOSED: '订单已关闭',
  REVOKED: '已撤销',
  PAYERROR: '支付失败',
  REFUND: '转入退款',
};

export interface WechatPayFakeOptions {
  mchid: string;
  appid: string;
  /** The merchant's API certificate serial and public key: what our Authorization is checked against. */
  merchantSerial: string;
  merchantPublicKey: string | KeyObject;
  apiV3Key: string;
  /** The official account's AppSecret (its AppID is `appid`), for the web OAuth of JSAPI; made up when absent. */
  appSecret?: string;
  now?: () => Date;
  /**
   * Waits between notification attempts. WeChat Pay documents 15s/15s/30s/3m/10m/20m/30m/30m/30m/60m/3h/… over
   * about 24 h; tests use short ones. After the last, the last one repeats until the fake closes.
   */
  retryDelaysMs?: number[];
}

export interface FakeTrade {
  orderNo: string;
  prepayId: string;
  transactionId?: string;
  appid: string;
  mchid: string;
  description: string;
  amount: number;
  notifyUrl: string;
  timeExpire: string;
  payerClientIp: string;
  /** JSAPI: the payer named at ordering; only that WeChat user's bridge can pay it. */
  payerOpenid?: string;
  tradeType: 'MWEB' | 'JSAPI';
  state: TradeState;
  successTime?: string;
}

export interface FakeRefund {
  refundNo: string;
  refundId: string;
  orderNo: string;
  transactionId: string;
  amount: number;
  total: number;
  notifyUrl?: string;
  status: 'PROCESSING' | 'SUCCESS';
  createTime: string;
  successTime?: string;
}

export interface FakeDelivery {
  id: string;
  eventType: string;
  url: string;
  body: string;
  attempts: { at: Date; status?: number; error?: string }[];
  acknowledged: boolean;
  /** Lost on the way (dropNotifications): owed, never sent. */
  dropped: boolean;
}

export interface FakeApiRequest {
  method: string;
  path: string;
  body: string;
  status: number;
  code?: string;
}

type Json = Record<string, unknown>;

const rfc3339 = (at: Date) => `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const OUT_TRADE_NO = /^[0-9A-Za-z_\-|*]{6,32}$/;
const OUT_REFUND_NO = /^[0-9A-Za-z_\-|*@]{1,64}$/;
const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type WechatPayFake = Awaited<ReturnType<typeof startWechatPayFake>>;

export async function startWechatPayFake(opts: WechatPayFakeOptions) {
  const now = opts.now ?? (() => new Date());
  const merchantKey =
    typeof opts.merchantPublicKey === 'string'
      ? createPublicKey(opts.merchantPublicKey)
      : opts.merchantPublicKey;
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platformPublicKeyId = `PUB_KEY_ID_${digits(30)}`;
  const platformPublicKeyPem = platform.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const retryDelays = opts.retryDelaysMs ?? [50, 200, 500, 1_000];

  const trades = new Map<string, FakeTrade>();
  const byPrepay = new Map<string, FakeTrade>();
  const refunds = new Map<string, FakeRefund>();
  const deliveries: FakeDelivery[] = [];
  const requests: FakeApiRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let dropping = false;
  let breakAnswers = false;
  let closed = false;

  const unix = () => Math.floor(now().getTime() / 1000);
  const signText = (message: string, key: KeyObject = platform.privateKey) =>
    sign('sha256', Buffer.from(message, 'utf8'), key).toString('base64');

  /** Signature headers over `timestamp\nnonce\nbody\n`, as WeChat Pay puts on answers and notifications. */
  function signatureHeaders(
    body: string,
    o: { key?: KeyObject; serial?: string; timestamp?: number } = {},
  ): Record<string, string> {
    const timestamp = String(o.timestamp ?? unix());
    const nonce = randomBytes(16).toString('hex');
    return {
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': o.serial ?? platformPublicKeyId,
      'wechatpay-signature': signText(`${timestamp}\n${nonce}\n${body}\n`, o.key),
    };
  }

  /** AEAD_AES_256_GCM: base64 of ciphertext and 16-byte tag, with a 12-character nonce and associated data. */
  function seal(resource: Json, originalType: string, apiV3Key = opts.apiV3Key): Json {
    const nonce = randomBytes(9).toString('base64url');
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
    cipher.setAAD(Buffer.from(originalType, 'utf8'));
    const sealed = Buffer.concat([
      cipher.update(JSON.stringify(resource), 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return {
      original_type: originalType,
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: sealed.toString('base64'),
      associated_data: originalType,
      nonce,
    };
  }

  function notificationBody(eventType: string, summary: string, resource: Json, o: ForgeOptions = {}) {
    const originalType = o.originalType ?? (eventType.startsWith('REFUND.') ? 'refund' : 'transaction');
    const sealed = seal(resource, originalType, o.apiV3Key);
    if (o.tamper) {
      const bytes = Buffer.from(String(sealed.ciphertext), 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      sealed.ciphertext = bytes.toString('base64');
    }
    return JSON.stringify({
      id: randomUUID(),
      create_time: rfc3339(now()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary,
      resource: sealed,
    });
  }

  function transactionJson(t: FakeTrade): Json {
    const paid = t.state === 'SUCCESS' || t.state === 'REFUND';
    return {
      appid: t.appid,
      mchid: t.mchid,
      out_trade_no: t.orderNo,
      ...(t.transactionId ? { transaction_id: t.transactionId } : {}),
      trade_type: t.tradeType,
      trade_state: t.state,
      trade_state_desc: STATE_DESC[t.state],
      ...(paid
        ? {
            bank_type: 'OTHERS',
            success_time: t.successTime,
            payer: { openid: t.payerOpenid ?? `o${digits(27)}` },
          }
        : {}),
      attach: '',
      amount: paid
        ? { total: t.amount, payer_total: t.amount, currency: 'CNY', payer_currency: 'CNY' }
        : { total: t.amount, currency: 'CNY' },
    };
  }

  function refundJson(r: FakeRefund): Json {
    return {
      refund_id: r.refundId,
      out_refund_no: r.refundNo,
      transaction_id: r.transactionId,
      out_trade_no: r.orderNo,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      ...(r.successTime ? { success_time: r.successTime } : {}),
      create_time: r.createTime,
      status: r.status,
      funds_account: 'UNAVAILABLE',
      amount: {
        total: r.total,
        refund: r.amount,
        payer_total: r.total,
        payer_refund: r.amount,
        settlement_refund: r.amount,
        settlement_total: r.total,
        discount_refund: 0,
        currency: 'CNY',
      },
    };
  }

  function refundNotificationResource(r: FakeRefund): Json {
    return {
      mchid: opts.mchid,
      out_trade_no: r.orderNo,
      transaction_id: r.transactionId,
      out_refund_no: r.refundNo,
      refund_id: r.refundId,
      refund_status: r.status,
      success_time: r.successTime,
      user_received_account: '支付用户零钱',
      amount: { total: r.total, refund: r.amount, payer_total: r.total, payer_refund: r.amount },
    };
  }

  // ---- notifications: owed, sent signed afresh on every attempt, retried until 200 or 204 ----

  function later(ms: number, run: () => void) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  }

  async function attempt(d: FakeDelivery) {
    if (closed) return;
    const entry: FakeDelivery['attempts'][number] = { at: now() };
    d.attempts.push(entry);
    try {
      const res = await fetch(d.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signatureHeaders(d.body) },
        body: d.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(5_000),
      });
      entry.status = res.status;
      await res.arrayBuffer();
      if (res.status === 200 || res.status === 204) {
        d.acknowledged = true;
        return;
      }
    } catch (err) {
      entry.error = (err as Error).message;
    }
    const wait = retryDelays[Math.min(d.attempts.length, retryDelays.length) - 1] ?? 1_000;
    later(wait, () => void attempt(d));
  }

  function owe(eventType: string, summary: string, resource: Json, url: string) {
    const d: FakeDelivery = {
      id: randomUUID(),
      eventType,
      url,
      body: notificationBody(eventType, summary, resource),
      attempts: [],
      acknowledged: false,
      dropped: dropping,
    };
    deliveries.push(d);
    if (!d.dropped) void attempt(d);
    return d;
  }

  function pay(orderNo: string): FakeTrade {
    const t = trades.get(orderNo);
    if (!t) throw new Error(`wechat pay fake: no trade ${orderNo}`);
    if (t.state === 'SUCCESS' || t.state === 'REFUND') return t;
    if (t.state !== 'NOTPAY' && t.state !== 'USERPAYING')
      throw new Error(`wechat pay fake: trade ${orderNo} is ${t.state}`);
    t.state = 'SUCCESS';
    t.transactionId = `42000${digits(23)}`;
    t.successTime = rfc3339(now());
    owe('TRANSACTION.SUCCESS', '支付成功', transactionJson(t), t.notifyUrl);
    return t;
  }

  // ---- the API ----

  /** Our Authorization, checked as WeChat Pay documents; a refusal is a 401 SIGN_ERROR, unsigned. */
  function checkAuthorization(req: IncomingMessage, body: string) {
    const header = req.headers.authorization ?? '';
    const prefix = 'WECHATPAY2-SHA256-RSA2048 ';
    if (!header.startsWith(prefix)) throw new ApiError(401, 'SIGN_ERROR', 'Authorization 认证类型不正确');
    const fields = Object.fromEntries(
      Array.from(header.slice(prefix.length).matchAll(/([a-z_]+)="([^"]*)"/g), (m) => [m[1], m[2]]),
    ) as Record<string, string | undefined>;
    const { mchid, nonce_str: nonce, signature, timestamp, serial_no: serial } = fields;
    if (!mchid || !nonce || !signature || !timestamp || !serial)
      throw new ApiError(401, 'SIGN_ERROR', 'Authorization 缺少签名信息');
    if (mchid !== opts.mchid) throw new ApiError(401, 'SIGN_ERROR', '商户号不存在');
    if (serial !== opts.merchantSerial) throw new ApiError(401, 'SIGN_ERROR', '商户证书序列号有误');
    if (Math.abs(unix() - Number(timestamp)) > 300)
      throw new ApiError(401, 'SIGN_ERROR', 'Http头Authorization中的timestamp与发起请求的时间不得超过5分钟');
    const message = `${req.method}\n${req.url}\n${timestamp}\n${nonce}\n${body}\n`;
    if (!verify('sha256', Buffer.from(message, 'utf8'), merchantKey, Buffer.from(signature, 'base64')))
      throw new ApiError(401, 'SIGN_ERROR', '错误的签名，验签失败');
  }

  const param = (cond: unknown, message: string) => {
    if (!cond) throw new ApiError(400, 'PARAM_ERROR', message);
  };

  /** An H5 or a JSAPI order: the same checks, the same rule for one out_trade_no asked twice. */
  function createTrade(body: Json, tradeType: FakeTrade['tradeType']): FakeTrade {
    param(body.appid === opts.appid, 'appid和mch_id不匹配');
    param(body.mchid === opts.mchid, 'mchid与请求方的商户号不一致');
    const { description, out_trade_no: orderNo, time_expire: timeExpire, notify_url: notifyUrl } = body;
    param(
      typeof description === 'string' && description.length > 0 && Array.from(description).length <= 127,
      '商品描述不合法',
    );
    param(typeof orderNo === 'string' && OUT_TRADE_NO.test(orderNo), 'out_trade_no 不合法');
    param(
      timeExpire === undefined || (typeof timeExpire === 'string' && RFC3339.test(timeExpire)),
      'time_expire 格式不正确',
    );
    param(
      typeof notifyUrl === 'string' && notifyUrl.length <= 255 && /^https?:\/\/[^?#]+$/.test(notifyUrl),
      'notify_url 不合法',
    );
    const amount = body.amount as Json | undefined;
    param(Number.isSafeInteger(amount?.total) && (amount?.total as number) >= 1, 'amount.total 不合法');
    param(amount?.currency === undefined || amount.currency === 'CNY', 'amount.currency 不合法');
    const scene = body.scene_info as { payer_client_ip?: unknown; h5_info?: { type?: unknown } } | undefined;
    const payer = body.payer as { openid?: unknown } | undefined;
    if (tradeType === 'MWEB') {
      param(typeof scene?.payer_client_ip === 'string', '缺少 scene_info.payer_client_ip');
      param(typeof scene?.h5_info?.type === 'string', '缺少 scene_info.h5_info.type');
    } else {
      param(typeof payer?.openid === 'string' && payer.openid.length > 0, '缺少 payer.openid');
      param(openids.has(payer?.openid as string), 'openid与appid不匹配');
    }
    const wanted = {
      description: description as string,
      amount: amount?.total as number,
      notifyUrl: notifyUrl as string,
      timeExpire: (timeExpire as string | undefined) ?? '',
    };
    let t = trades.get(orderNo as string);
    if (t) {
      if (t.state === 'SUCCESS' || t.state === 'REFUND') throw new ApiError(400, 'ORDERPAID', '该订单已支付');
      if (t.state === 'CLOSED') throw new ApiError(400, 'ORDER_CLOSED', '订单已关闭');
      if (
        t.description !== wanted.description ||
        t.amount !== wanted.amount ||
        t.notifyUrl !== wanted.notifyUrl ||
        t.tradeType !== tradeType
      )
        throw new ApiError(400, 'INVALID_REQUEST', '201 商户订单号重复');
      if (tradeType === 'JSAPI') t.payerOpenid = payer?.openid as string;
    } else {
      t = {
        orderNo: orderNo as string,
        prepayId: `wx${digits(8)}${randomBytes(12).toString('hex')}`,
        appid: opts.appid,
        mchid: opts.mchid,
        ...wanted,
        payerClientIp: typeof scene?.payer_client_ip === 'string' ? scene.payer_client_ip : '',
        ...(tradeType === 'JSAPI' ? { payerOpenid: payer?.openid as string } : {}),
        tradeType,
        state: 'NOTPAY',
      };
      trades.set(t.orderNo, t);
      byPrepay.set(t.prepayId, t);
    }
    return t;
  }

  function createH5(body: Json): Json {
    const t = createTrade(body, 'MWEB');
    return {
      h5_url: `${baseUrl}/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=${t.prepayId}&package=${digits(10)}`,
    };
  }

  const createJsapi = (body: Json): Json => ({ prepay_id: createTrade(body, 'JSAPI').prepayId });

  function query(orderNo: string, mchid: string | null): Json {
    param(mchid === opts.mchid, 'mchid 不正确');
    const t = trades.get(orderNo);
    if (!t) throw new ApiError(404, 'ORDER_NOT_EXIST', '订单不存在');
    return transactionJson(t);
  }

  function refund(body: Json): Json {
    const orderNo = body.out_trade_no;
    const refundNo = body.out_refund_no;
    param(typeof orderNo === 'string', '缺少 out_trade_no');
    param(typeof refundNo === 'string' && OUT_REFUND_NO.test(refundNo), 'out_refund_no 不合法');
    const amount = body.amount as Json | undefined;
    const wanted = amount?.refund as number;
    param(Number.isSafeInteger(wanted) && wanted >= 1, 'amount.refund 不合法');
    param(amount?.currency === 'CNY', 'amount.currency 不合法');
    const t = trades.get(orderNo as string);
    if (!t?.transactionId) throw new ApiError(404, 'RESOURCE_NOT_EXISTS', '订单不存在');
    if (amount?.total !== t.amount)
      throw new ApiError(400, 'INVALID_REQUEST', '订单金额或退款金额与之前请求不一致，请核实后再试');
    const existing = refunds.get(refundNo as string);
    if (existing) {
      // The documented rule: one refund number refunds once; asking again answers that refund.
      if (existing.orderNo !== t.orderNo || existing.amount !== wanted)
        throw new ApiError(400, 'INVALID_REQUEST', '订单金额或退款金额与之前请求不一致，请核实后再试');
      return refundJson(existing);
    }
    const refunded = [...refunds.values()]
      .filter((r) => r.orderNo === t.orderNo)
      .reduce((s, r) => s + r.amount, 0);
    if (refunded + wanted > t.amount)
      throw new ApiError(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
    const r: FakeRefund = {
      refundNo: refundNo as string,
      refundId: `50300${digits(24)}`,
      orderNo: t.orderNo,
      transactionId: t.transactionId,
      amount: wanted,
      total: t.amount,
      notifyUrl: typeof body.notify_url === 'string' ? body.notify_url : undefined,
      status: 'PROCESSING',
      createTime: rfc3339(now()),
    };
    refunds.set(r.refundNo, r);
    // The money goes back a moment after the answer, which says PROCESSING, as it usually does.
    later(20, () => {
      r.status = 'SUCCESS';
      r.successTime = rfc3339(now());
      t.state = 'REFUND';
      if (r.notifyUrl) owe('REFUND.SUCCESS', '退款成功', refundNotificationResource(r), r.notifyUrl);
    });
    return refundJson(r);
  }

  function answer(res: ServerResponse, status: number, json: Json | undefined, signed: boolean) {
    const body = json === undefined ? '' : JSON.stringify(json);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'request-id': randomUUID(),
    };
    if (signed) {
      Object.assign(headers, signatureHeaders(body));
      // A broken signature: right key and headers, over other bytes than the ones sent.
      if (breakAnswers)
        headers['wechatpay-signature'] = signText(`${headers['wechatpay-timestamp']}\n-\n${body}\n`);
    }
    res.writeHead(status, headers).end(body);
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, body: string) {
    const record: FakeApiRequest = { method: req.method ?? '', path: req.url ?? '', body, status: 200 };
    requests.push(record);
    try {
      checkAuthorization(req, body);
    } catch (err) {
      const e = err as ApiError;
      Object.assign(record, { status: e.status, code: e.code });
      return answer(res, e.status, { code: e.code, message: e.message }, false);
    }
    try {
      const json = body ? (JSON.parse(body) as Json) : {};
      let result: Json;
      const queryPath = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/h5') result = createH5(json);
      else if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/jsapi')
        result = createJsapi(json);
      else if (req.method === 'GET' && queryPath?.[1])
        result = query(decodeURIComponent(queryPath[1]), url.searchParams.get('mchid'));
      else if (req.method === 'POST' && url.pathname === '/v3/refund/domestic/refunds') result = refund(json);
      else throw new ApiError(404, 'NOT_FOUND', '接口不存在');
      answer(res, 200, result, true);
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(400, 'PARAM_ERROR', '请求体不是合法的 JSON');
      Object.assign(record, { status: e.status, code: e.code });
      answer(res, e.status, { code: e.code, message: e.message }, true);
    }
  }

  // ---- the cashier page the payer's browser reaches through h5_url ----

  function cashier(res: ServerResponse, url: URL) {
    const t = byPrepay.get(url.searchParams.get('prepay_id') ?? '');
    const page = (title: string, inner: string) =>
      `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body><header>微信支付</header><main>${inner}</main></body></html>`;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (!t) return res.writeHead(404).end(page('微信支付', '<p>订单不存在或已过期</p>'));
    const amount = `<p class="amount">¥${(t.amount / 100).toFixed(2)}</p><p>${escapeHtml(t.description)}</p><p>商户订单号 <span data-order-no>${escapeHtml(t.orderNo)}</span></p>`;
    if (t.state !== 'NOTPAY' && t.state !== 'USERPAYING')
      return res.end(page('微信支付', `${amount}<p class="state">${STATE_DESC[t.state]}</p>`));
    const redirect = url.searchParams.get('redirect_url') ?? '';
    res.end(
      page(
        '微信支付',
        `${amount}<form method="post" action="/cgi-bin/mmpayweb-bin/confirm"><input type="hidden" name="prepay_id" value="${escapeHtml(t.prepayId)}"><input type="hidden" name="redirect_url" value="${escapeHtml(redirect)}"><button type="submit">确认支付</button></form>`,
      ),
    );
  }

  function confirm(res: ServerResponse, body: string) {
    const form = new URLSearchParams(body);
    const t = byPrepay.get(form.get('prepay_id') ?? '');
    if (!t) return res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('订单不存在');
    pay(t.orderNo);
    const back = form.get('redirect_url') ?? '';
    if (/^https?:\/\//.test(back)) return res.writeHead(302, { location: back }).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>支付成功</p>');
  }

  // ---- the official account's web OAuth (snsapi_base) and WeChat's in-app bridge, for JSAPI ----

  const appSecret = opts.appSecret ?? randomBytes(16).toString('hex');
  /** Every openid this official account has seen; the one signed in to the WeChat the browser runs in. */
  const openids = new Set<string>();
  const codes = new Map<string, { openid: string; used: boolean; expires: number }>();
  const bridgeCalls: { params: Json; errMsg: string; reason?: string }[] = [];
  let wechatUser = `o${randomBytes(14).toString('base64url')}`;
  openids.add(wechatUser);
  // The official account's server API (access token, JS-SDK ticket, notices), at the same address as its OAuth.
  const officialAccount = createOfficialAccountFake({ appid: opts.appid, appSecret, openids, now });

  /** As WeChat: straight back to redirect_uri with a one-use code (five minutes) and the state, for snsapi_base. */
  function authorize(res: ServerResponse, url: URL) {
    const p = url.searchParams;
    const refuse = (text: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<p>${escapeHtml(text)}</p>`);
    if (p.get('appid') !== opts.appid) return refuse('appid 参数错误');
    if (p.get('response_type') !== 'code') return refuse('response_type 参数错误');
    if (p.get('scope') !== 'snsapi_base' && p.get('scope') !== 'snsapi_userinfo')
      return refuse('scope 参数错误');
    const back = p.get('redirect_uri') ?? '';
    if (!/^https?:\/\//.test(back)) return refuse('redirect_uri 参数错误');
    const code = randomBytes(16).toString('hex');
    codes.set(code, { openid: wechatUser, used: false, expires: now().getTime() + 5 * 60_000 });
    const state = p.get('state') ?? '';
    const to = `${back}${back.includes('?') ? '&' : '?'}code=${code}&state=${encodeURIComponent(state)}`;
    res.writeHead(302, { location: to }).end();
  }

  /** As WeChat's sns/oauth2/access_token: errcode and errmsg on refusal, the openid otherwise. */
  function accessToken(res: ServerResponse, url: URL) {
    const p = url.searchParams;
    const reply = (json: Json) =>
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(json));
    if (p.get('appid') !== opts.appid) return reply({ errcode: 40013, errmsg: 'invalid appid' });
    if (p.get('secret') !== appSecret) return reply({ errcode: 40125, errmsg: 'invalid appsecret' });
    if (p.get('grant_type') !== 'authorization_code')
      return reply({ errcode: 40002, errmsg: 'invalid grant_type' });
    const code = codes.get(p.get('code') ?? '');
    if (!code) return reply({ errcode: 40029, errmsg: 'invalid code' });
    if (code.used) return reply({ errcode: 40163, errmsg: 'code been used' });
    if (code.expires < now().getTime()) return reply({ errcode: 42003, errmsg: 'code expired' });
    code.used = true;
    return reply({
      access_token: randomBytes(24).toString('base64url'),
      expires_in: 7200,
      refresh_token: randomBytes(24).toString('base64url'),
      openid: code.openid,
      scope: 'snsapi_base',
      is_snapshotuser: 0,
    });
  }

  /**
   * What WeixinJSBridge.invoke('getBrandWCPayRequest', params) does in the payer's WeChat: checks the merchant's
   * paySign over appId, timeStamp, nonceStr and package, that the prepay_id is this payer's, then pays.
   */
  function bridgePay(params: Json): { err_msg: string } {
    const fail = (reason: string) => {
      bridgeCalls.push({ params, errMsg: 'get_brand_wcpay_request:fail', reason });
      return { err_msg: 'get_brand_wcpay_request:fail' };
    };
    const { appId, timeStamp, nonceStr, package: pkg, signType, paySign } = params as Record<string, unknown>;
    if (appId !== opts.appid) return fail('appId');
    if (signType !== 'RSA') return fail('signType');
    if (typeof timeStamp !== 'string' || !/^\d{10}$/.test(timeStamp)) return fail('timeStamp');
    if (typeof nonceStr !== 'string' || nonceStr.length === 0 || nonceStr.length > 32)
      return fail('nonceStr');
    if (typeof pkg !== 'string' || typeof paySign !== 'string') return fail('package or paySign');
    const message = `${appId}\n${timeStamp}\n${nonceStr}\n${pkg}\n`;
    if (!verify('sha256', Buffer.from(message, 'utf8'), merchantKey, Buffer.from(paySign, 'base64')))
      return fail('paySign');
    const t = byPrepay.get(pkg.replace(/^prepay_id=/, ''));
    if (t?.tradeType !== 'JSAPI') return fail('prepay_id');
    if (t.payerOpenid !== wechatUser) return fail('payer');
    if (t.state !== 'NOTPAY' && t.state !== 'USERPAYING') return fail(`trade ${t.state}`);
    pay(t.orderNo);
    bridgeCalls.push({ params, errMsg: 'get_brand_wcpay_request:ok' });
    return { err_msg: 'get_brand_wcpay_request:ok' };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', baseUrl);
      if (url.pathname.startsWith('/v3/')) return void api(req, res, url, body);
      if (req.method === 'GET' && url.pathname === '/cgi-bin/mmpayweb-bin/checkmweb')
        return cashier(res, url);
      if (req.method === 'POST' && url.pathname === '/cgi-bin/mmpayweb-bin/confirm')
        return confirm(res, body);
      if (req.method === 'GET' && url.pathname === '/connect/oauth2/authorize') return authorize(res, url);
      if (req.method === 'GET' && url.pathname === '/sns/oauth2/access_token') return accessToken(res, url);
      if (officialAccount.handle(res, req.method ?? '', url, body)) return;
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    /** What the merchant configures: the WeChat Pay public key (PEM) and its id. */
    platformPublicKeyPem,
    platformPublicKeyId,
    /** The payer confirms at the cashier: the trade is paid and its TRANSACTION.SUCCESS notification owed. */
    pay,
    /** The official account's AppSecret (WECHATPAY_APPSECRET). */
    appSecret,
    /** The official account's server API: notices, the JS-SDK ticket, the event pushes. */
    officialAccount,
    /** Who is signed in to the WeChat the browser runs in (the openid OAuth gives). */
    signInWechat(openid: string) {
      wechatUser = openid;
      openids.add(openid);
    },
    wechatUser: () => wechatUser,
    bridgePay,
    bridgeCalls: () => [...bridgeCalls],
    setTradeState(orderNo: string, state: TradeState) {
      const t = trades.get(orderNo);
      if (!t) throw new Error(`wechat pay fake: no trade ${orderNo}`);
      t.state = state;
    },
    trade: (orderNo: string) => trades.get(orderNo),
    refunds: () => [...refunds.values()],
    notifications: () => [...deliveries],
    requests: () => [...requests],
    /** While on, owed notifications are recorded but never sent: lost on the way. */
    dropNotifications(on = true) {
      dropping = on;
    },
    /** While on, every answer's signature is wrong. */
    breakAnswerSignatures(on = true) {
      breakAnswers = on;
    },
    transactionResource(orderNo: string, overrides: Json = {}): Json {
      const t = trades.get(orderNo);
      if (!t) throw new Error(`wechat pay fake: no trade ${orderNo}`);
      return { ...transactionJson(t), ...overrides };
    },
    refundResource(refundNo: string, overrides: Json = {}): Json {
      const r = refunds.get(refundNo);
      if (!r) throw new Error(`wechat pay fake: no refund ${refundNo}`);
      return { ...refundNotificationResource(r), ...overrides };
    },
    /**
     * A notification as WeChat Pay would send it, or forged: another signing key, an old timestamp, another
     * serial, another APIv3 key, a flipped ciphertext bit. Header names are lowercase, as node hands them over.
     */
    forgeNotification(eventType: string, resource: Json, o: ForgeOptions = {}) {
      const summary = eventType.startsWith('REFUND.') ? '退款成功' : '支付成功';
      const body = notificationBody(eventType, summary, resource, o);
      return {
        headers: { 'content-type': 'application/json', ...signatureHeaders(body, o) },
        body,
      };
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ForgeOptions {
  /** Signs with this key instead of the platform key. */
  key?: KeyObject;
  serial?: string;
  /** Unix seconds. */
  timestamp?: number;
  apiV3Key?: string;
  /** Flips one bit of the sealed resource after sealing. */
  tamper?: boolean;
  originalType?: string;
}
