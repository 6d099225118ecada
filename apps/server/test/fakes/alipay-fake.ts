// Alipay played on loopback for tests: the open platform's v1 gateway (/gateway.do) as its documentation describes
// it, holding its own RSA key pair ("Alipay's keys") and knowing the app's public key, so every signature in both
// directions is a real RSA2 signature checked the documented way. Nothing here imports the adapter under test.
import { createSign, createVerify, generateKeyPairSync, randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RsaKeyPair {
  /** PEM: PKCS#8 unless asked for PKCS#1. */
  privateKey: string;
  /** PEM, SPKI. */
  publicKey: string;
}

export function makeRsaKeyPair(privateFormat: 'pkcs8' | 'pkcs1' = 'pkcs8'): RsaKeyPair {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: privateFormat, format: 'pem' },
  });
}

/** The two pairs a test needs: the app's (ours; its public half is uploaded to Alipay) and Alipay's own. */
export function makeAlipayKeys(appPrivateFormat: 'pkcs8' | 'pkcs1' = 'pkcs8') {
  return { app: makeRsaKeyPair(appPrivateFormat), alipay: makeRsaKeyPair() };
}

export type TradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED';

export interface FakeRefund {
  outRequestNo: string;
  cents: number;
  at: Date;
}

export interface FakeTrade {
  tradeNo: string;
  outTradeNo: string;
  subject: string;
  cents: number;
  status: TradeStatus;
  notifyUrl?: string;
  returnUrl?: string;
  quitUrl?: string;
  timeExpire?: Date;
  createdAt: Date;
  paidAt?: Date;
  refunds: FakeRefund[];
}

export interface NotificationAttempt {
  at: Date;
  status?: number;
  body?: string;
  error?: string;
}

export interface FakeNotification {
  notifyId: string;
  outTradeNo: string;
  url: string;
  fields: Record<string, string>;
  body: string;
  attempts: NotificationAttempt[];
  acknowledged: boolean;
  /** Lost on the way (dropNotifications): never sent, never retried. */
  dropped: boolean;
}

export interface AlipayFakeOptions {
  appId: string;
  /** The app's public key (PEM), as uploaded to the open platform. */
  appPublicKey: string;
  /** Alipay's own pair; generated when absent. */
  alipayKeys?: RsaKeyPair;
  /** The seller's Alipay user id (2088 + 12 digits); generated when absent. */
  sellerId?: string;
  now?: () => Date;
  /**
   * Waits between notification attempts. Alipay retries 8 times over 25 hours (4m, 10m, 10m, 1h, 2h, 6h, 15h);
   * the default keeps that count on a test's time scale.
   */
  retryDelaysMs?: number[];
}

type Node = Record<string, string>;

const RSA_ALGORITHMS: Record<string, string> = { RSA2: 'RSA-SHA256', RSA: 'RSA-SHA1' };
const TIMESTAMP_TOLERANCE_MS = 30 * 60_000;
const CHINA_OFFSET_MS = 8 * 3600 * 1000;

const chinaTime = (at: Date) =>
  new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
const chinaDay = (at: Date) => chinaTime(at).slice(0, 10).replaceAll('-', '');

function parseChinaTime(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  const at = new Date(`${text.replace(' ', 'T')}+08:00`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

const yuan = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

function centsOf(text: unknown): number | undefined {
  const match = typeof text === 'string' ? /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text) : null;
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The documented sign content: every parameter but `sign` (and, for what Alipay sends — notifications and
 * returns — but `sign_type`), empty values left out, sorted by name, `name=value` joined by `&`, values raw.
 */
function signContent(params: Record<string, string>, alsoWithout: string[] = []): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && !alsoWithout.includes(k) && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

function rsaSign(content: string, privateKey: string, signType = 'RSA2'): string {
  return createSign(RSA_ALGORITHMS[signType] ?? 'RSA-SHA256')
    .update(content, 'utf8')
    .sign(privateKey, 'base64');
}

function rsaVerifies(content: string, sign: string, publicKey: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(publicKey, sign, 'base64');
  } catch {
    return false;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1 << 20) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

class GatewayError extends Error {
  constructor(
    readonly code: '40001' | '40002' | '40004',
    readonly subCode: string,
    readonly subMsg: string,
  ) {
    super(`${subCode} ${subMsg}`);
  }
}

const MSG = {
  '40001': 'Missing Required Arguments',
  '40002': 'Invalid Arguments',
  '40004': 'Business Failed',
};
const missing = (name: string) => new GatewayError('40001', `isv.missing-${name}`, `缺少${name}参数`);
const invalid = (subCode: string, subMsg: string) => new GatewayError('40002', subCode, subMsg);
const business = (subCode: string, subMsg: string) => new GatewayError('40004', subCode, subMsg);

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 -apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;
background:#f5f5f5;color:#333}header{background:#1677ff;color:#fff;padding:12px 16px;font-size:17px;text-align:center}
main{max-width:480px;margin:0 auto;padding:16px}.card{background:#fff;border-radius:8px;padding:20px 16px;margin-bottom:16px}
.amount{font-size:36px;font-weight:600;text-align:center;margin:8px 0 16px}dl{margin:0;display:grid;
grid-template-columns:auto 1fr;gap:6px 12px;font-size:14px}dt{color:#999}dd{margin:0;text-align:right;word-break:break-all}
button,a.button{display:block;width:100%;padding:12px;border:0;border-radius:6px;font-size:17px;margin-top:12px;
text-align:center;text-decoration:none}.pay{background:#1677ff;color:#fff}.quit{background:#fff;color:#555;border:1px solid #ddd}`;

function page(title: string, body: string) {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,maximum-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header>支付宝 · 收银台</header><main>${body}</main></body></html>`;
}

function cashierPage(trade: FakeTrade) {
  const quit = trade.quitUrl ? `<a class="button quit" href="${escapeHtml(trade.quitUrl)}">放弃付款</a>` : '';
  return page(
    '支付宝 - 收银台',
    `<div class="card"><div class="amount" data-amount>¥${yuan(trade.cents)}</div>
<dl><dt>订单信息</dt><dd>${escapeHtml(trade.subject)}</dd><dt>商户订单号</dt><dd data-order-no>${escapeHtml(trade.outTradeNo)}</dd></dl></div>
<form method="post" action="/cashier/${trade.tradeNo}/confirm"><button class="pay" type="submit">确认付款</button></form>${quit}`,
  );
}

const errorPage = (err: GatewayError) =>
  page(
    '支付宝 - 出错了',
    `<div class="card"><p>抱歉，支付出错了</p><dl><dt>错误代码</dt><dd data-error-code>${escapeHtml(err.subCode)}</dd>
<dt>错误原因</dt><dd>${escapeHtml(err.subMsg)}</dd></dl></div>`,
  );

export type AlipayFake = Awaited<ReturnType<typeof startAlipayFake>>;

export async function startAlipayFake(opts: AlipayFakeOptions) {
  const now = opts.now ?? (() => new Date());
  const alipayKeys = opts.alipayKeys ?? makeRsaKeyPair();
  const sellerId = opts.sellerId ?? `2088${digits(12)}`;
  const retryDelaysMs = opts.retryDelaysMs ?? [50, 100, 100, 200, 400, 800, 1_500];
  const byOutTradeNo = new Map<string, FakeTrade>();
  const byTradeNo = new Map<string, FakeTrade>();
  const notifications: FakeNotification[] = [];
  const deliveries = new Set<Promise<void>>();
  const stopping = new AbortController();
  let dropCount = 0;
  let breakCount = 0;
  let stranger: RsaKeyPair | undefined;

  // ---- the common request checks of the gateway ----

  /** Query and form parameters of one request; a name given twice is refused (which value was signed?). */
  async function paramsOf(req: IncomingMessage, url: URL): Promise<Node> {
    const params: Node = {};
    const add = (pairs: URLSearchParams) => {
      for (const [name, value] of pairs) {
        if (Object.hasOwn(params, name)) throw invalid('isv.invalid-parameter', `参数${name}重复`);
        params[name] = value;
      }
    };
    add(url.searchParams);
    if (req.method === 'POST') {
      const body = await readBody(req);
      const type = String(req.headers['content-type'] ?? '').toLowerCase();
      if (type.startsWith('application/x-www-form-urlencoded')) add(new URLSearchParams(body));
    }
    return params;
  }

  /** app_id, sign_type, timestamp, charset, version and our RSA2 signature; then the parsed biz_content. */
  function checkRequest(params: Node): Record<string, unknown> {
    if (!params.app_id) throw missing('app-id');
    if (params.app_id !== opts.appId) throw invalid('isv.invalid-app-id', '无效的AppID参数');
    if (!params.method) throw missing('method');
    if (!params.sign_type) throw missing('signature-type');
    // The app's interface signing is set to RSA2 (public-key mode) on the open platform.
    if (params.sign_type !== 'RSA2') throw invalid('isv.invalid-signature-type', '无效的签名类型');
    if (!params.sign) throw missing('signature');
    if (!params.timestamp) throw missing('timestamp');
    const at = parseChinaTime(params.timestamp);
    if (!at || Math.abs(at.getTime() - now().getTime()) > TIMESTAMP_TOLERANCE_MS)
      throw invalid('isv.invalid-timestamp', '非法的时间戳参数');
    if (params.charset && params.charset.toLowerCase() !== 'utf-8')
      throw invalid('isv.invalid-charset', '字符集错误');
    if (!params.version) throw missing('version');
    if (params.version !== '1.0') throw invalid('isv.invalid-version', '无效的版本号');
    const content = signContent(params);
    if (!rsaVerifies(content, params.sign, opts.appPublicKey))
      throw invalid(
        'isv.invalid-signature',
        `验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配，网关生成的验签字符串为：${content}`,
      );
    if (!params.biz_content) return {};
    try {
      const biz: unknown = JSON.parse(params.biz_content);
      if (biz && typeof biz === 'object' && !Array.isArray(biz)) return biz as Record<string, unknown>;
    } catch {
      // refused below
    }
    throw invalid('isv.invalid-parameter', 'biz_content 不是 JSON 对象');
  }

  // ---- trades ----

  function closeIfExpired(trade: FakeTrade) {
    if (trade.status === 'WAIT_BUYER_PAY' && trade.timeExpire && now() > trade.timeExpire)
      trade.status = 'TRADE_CLOSED';
  }

  function openTrade(params: Node, biz: Record<string, unknown>): FakeTrade {
    const outTradeNo = biz.out_trade_no;
    if (typeof outTradeNo !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(outTradeNo))
      throw invalid('isv.invalid-parameter', 'out_trade_no 无效');
    const cents = centsOf(biz.total_amount);
    if (cents === undefined || cents < 1 || cents > 100_000_000_00)
      throw invalid('isv.invalid-parameter', 'total_amount 无效，取值范围[0.01,100000000]');
    if (typeof biz.subject !== 'string' || !biz.subject || biz.subject.length > 256)
      throw invalid('isv.invalid-parameter', 'subject 无效');
    if (biz.product_code !== 'QUICK_WAP_WAY') throw business('ACQ.PRODUCT_CODE_ERROR', '产品码错误');
    let timeExpire: Date | undefined;
    if (biz.time_expire !== undefined) {
      timeExpire = typeof biz.time_expire === 'string' ? parseChinaTime(biz.time_expire) : undefined;
      if (!timeExpire) throw invalid('isv.invalid-parameter', 'time_expire 格式应为 yyyy-MM-dd HH:mm:ss');
    }
    const known = byOutTradeNo.get(outTradeNo);
    if (known) {
      closeIfExpired(known);
      if (known.status === 'TRADE_SUCCESS' || known.status === 'TRADE_FINISHED')
        throw business('ACQ.TRADE_HAS_SUCCESS', '交易已被支付');
      if (known.status === 'TRADE_CLOSED') throw business('ACQ.TRADE_HAS_CLOSE', '交易已经关闭');
      if (known.cents !== cents || known.subject !== biz.subject)
        throw business('ACQ.CONTEXT_INCONSISTENT', '交易信息被篡改');
      return known;
    }
    if (timeExpire && timeExpire <= now()) throw business('ACQ.TRADE_HAS_CLOSE', '交易已经关闭');
    const trade: FakeTrade = {
      tradeNo: `${chinaDay(now())}22001${digits(15)}`,
      outTradeNo,
      subject: biz.subject,
      cents,
      status: 'WAIT_BUYER_PAY',
      notifyUrl: params.notify_url || undefined,
      returnUrl: params.return_url || undefined,
      quitUrl: typeof biz.quit_url === 'string' ? biz.quit_url : undefined,
      timeExpire,
      createdAt: now(),
      refunds: [],
    };
    byOutTradeNo.set(outTradeNo, trade);
    byTradeNo.set(trade.tradeNo, trade);
    return trade;
  }

  const refunded = (trade: FakeTrade) => trade.refunds.reduce((sum, r) => sum + r.cents, 0);

  function markPaid(trade: FakeTrade) {
    closeIfExpired(trade);
    if (trade.status === 'TRADE_CLOSED') throw new Error(`trade ${trade.outTradeNo} is closed`);
    if (trade.status !== 'WAIT_BUYER_PAY') return;
    trade.status = 'TRADE_SUCCESS';
    trade.paidAt = now();
    send(trade, notificationFields(trade.outTradeNo));
  }

  // ---- what Alipay sends: notifications (signed, retried) and the payer's return ----

  function notificationFields(outTradeNo: string, overrides: Record<string, string> = {}): Node {
    const trade = byOutTradeNo.get(outTradeNo);
    if (!trade) throw new Error(`no trade for ${outTradeNo}`);
    const fields: Node = {
      notify_time: chinaTime(now()),
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(17).toString('hex'),
      app_id: opts.appId,
      auth_app_id: opts.appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_id: '2088102122524333',
      buyer_logon_id: '159****5620',
      seller_id: sellerId,
      trade_status: trade.status,
      total_amount: yuan(trade.cents),
      receipt_amount: yuan(trade.cents),
      invoice_amount: yuan(trade.cents),
      buyer_pay_amount: yuan(trade.cents),
      point_amount: '0.00',
      subject: trade.subject,
      gmt_create: chinaTime(trade.createdAt),
      ...(trade.paidAt ? { gmt_payment: chinaTime(trade.paidAt) } : {}),
      fund_bill_list: JSON.stringify([{ amount: yuan(trade.cents), fundChannel: 'ALIPAYACCOUNT' }]),
    };
    return { ...fields, ...overrides };
  }

  /** Signs as Alipay does (sign content without sign and sign_type); RSA (SHA-1) when the fields say so. */
  function signNotification(fields: Record<string, string>, privateKey = alipayKeys.privateKey) {
    const signed = {
      ...fields,
      sign: rsaSign(signContent(fields, ['sign_type']), privateKey, fields.sign_type),
    };
    return { fields: signed, body: new URLSearchParams(signed).toString() };
  }

  function send(trade: FakeTrade, fields: Node) {
    if (!trade.notifyUrl) return;
    const { fields: signed, body } = signNotification(fields);
    const record: FakeNotification = {
      notifyId: fields.notify_id ?? '',
      outTradeNo: trade.outTradeNo,
      url: trade.notifyUrl,
      fields: signed,
      body,
      attempts: [],
      acknowledged: false,
      dropped: dropCount > 0,
    };
    notifications.push(record);
    if (record.dropped) {
      dropCount -= 1;
      return;
    }
    const delivery = deliver(record).finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  }

  /** A form POST to notify_url, again after each wait until the answer's body is exactly `success`. */
  async function deliver(record: FakeNotification) {
    for (let attempt = 0; !stopping.signal.aborted; attempt++) {
      try {
        const res = await fetch(record.url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body: record.body,
          redirect: 'manual',
          signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(10_000)]),
        });
        const body = await res.text();
        record.attempts.push({ at: now(), status: res.status, body });
        if (body === 'success') {
          record.acknowledged = true;
          return;
        }
      } catch (err) {
        if (stopping.signal.aborted) return;
        record.attempts.push({ at: now(), error: err instanceof Error ? err.message : String(err) });
      }
      const wait = retryDelaysMs[attempt];
      if (wait === undefined) return;
      try {
        await sleep(wait, undefined, { signal: stopping.signal });
      } catch {
        return;
      }
    }
  }

  /** The synchronous return (alipay.trade.wap.pay.return): return_url with signed query parameters. */
  function returnLocation(trade: FakeTrade, returnUrl: string) {
    const fields: Node = {
      charset: 'utf-8',
      out_trade_no: trade.outTradeNo,
      method: 'alipay.trade.wap.pay.return',
      total_amount: yuan(trade.cents),
      trade_no: trade.tradeNo,
      auth_app_id: opts.appId,
      version: '1.0',
      app_id: opts.appId,
      sign_type: 'RSA2',
      seller_id: sellerId,
      timestamp: chinaTime(now()),
    };
    const location = new URL(returnUrl);
    for (const [name, value] of Object.entries(signNotification(fields).fields))
      location.searchParams.set(name, value);
    return location.toString();
  }

  // ---- the API methods (POST, JSON answers signed over the response node's text) ----

  function answer(res: ServerResponse, method: string | undefined, node: Record<string, unknown>) {
    const key = method ? `${method.replaceAll('.', '_')}_response` : 'error_response';
    const text = JSON.stringify(node);
    let signer = alipayKeys.privateKey;
    if (breakCount > 0) {
      breakCount -= 1;
      stranger ??= makeRsaKeyPair();
      signer = stranger.privateKey;
    }
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(`{"${key}":${text},"sign":"${rsaSign(text, signer)}"}`);
  }

  function findTrade(biz: Record<string, unknown>): FakeTrade {
    const { trade_no: tradeNo, out_trade_no: outTradeNo } = biz;
    if (typeof tradeNo !== 'string' && typeof outTradeNo !== 'string')
      throw business('ACQ.INVALID_PARAMETER', '参数无效：trade_no 和 out_trade_no 不能同时为空');
    const trade =
      typeof tradeNo === 'string' ? byTradeNo.get(tradeNo) : byOutTradeNo.get(outTradeNo as string);
    if (!trade || (typeof outTradeNo === 'string' && trade.outTradeNo !== outTradeNo))
      throw business('ACQ.TRADE_NOT_EXIST', '交易不存在');
    closeIfExpired(trade);
    return trade;
  }

  const isPaid = (trade: FakeTrade) => trade.status === 'TRADE_SUCCESS' || trade.status === 'TRADE_FINISHED';

  function query(biz: Record<string, unknown>): Record<string, unknown> {
    const trade = findTrade(biz);
    const paid = isPaid(trade) || (trade.status === 'TRADE_CLOSED' && trade.paidAt !== undefined);
    return {
      code: '10000',
      msg: 'Success',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_logon_id: '159****5620',
      trade_status: trade.status,
      total_amount: yuan(trade.cents),
      buyer_pay_amount: paid ? yuan(trade.cents) : '0.00',
      point_amount: '0.00',
      invoice_amount: paid ? yuan(trade.cents) : '0.00',
      receipt_amount: paid ? yuan(trade.cents) : '0.00',
      ...(trade.paidAt ? { send_pay_date: chinaTime(trade.paidAt) } : {}),
      buyer_user_id: '2088102122524333',
    };
  }

  function refundAnswer(trade: FakeTrade, fundChange: 'Y' | 'N') {
    return {
      code: '10000',
      msg: 'Success',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_logon_id: '159****5620',
      fund_change: fundChange,
      // Alipay's refund_fee is the trade's refunded total so far, not this request's amount.
      refund_fee: yuan(refunded(trade)),
      gmt_refund_pay: chinaTime(now()),
      buyer_user_id: '2088102122524333',
    };
  }

  function refund(biz: Record<string, unknown>): Record<string, unknown> {
    const trade = findTrade(biz);
    const cents = centsOf(biz.refund_amount);
    if (cents === undefined || cents < 1) throw invalid('isv.invalid-parameter', 'refund_amount 无效');
    // Without out_request_no Alipay takes the trade's own number: one refund per trade.
    const outRequestNo = typeof biz.out_request_no === 'string' ? biz.out_request_no : trade.outTradeNo;
    const earlier = trade.refunds.find((r) => r.outRequestNo === outRequestNo);
    if (earlier) {
      if (earlier.cents !== cents) throw business('ACQ.DISCORDANT_REPEAT_REQUEST', '不一致的请求');
      return refundAnswer(trade, 'N');
    }
    if (!isPaid(trade)) throw business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
    if (refunded(trade) + cents > trade.cents)
      throw business('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
    trade.refunds.push({ outRequestNo, cents, at: now() });
    const whole = refunded(trade) === trade.cents;
    if (whole) trade.status = 'TRADE_CLOSED';
    // A refund is notified too: TRADE_SUCCESS with refund_fee after a part, TRADE_CLOSED after the whole.
    send(
      trade,
      notificationFields(trade.outTradeNo, {
        trade_status: trade.status,
        out_biz_no: outRequestNo,
        refund_fee: yuan(refunded(trade)),
        gmt_refund: chinaTime(now()),
      }),
    );
    return refundAnswer(trade, 'Y');
  }

  function refundQuery(biz: Record<string, unknown>): Record<string, unknown> {
    const trade = findTrade(biz);
    const outRequestNo = typeof biz.out_request_no === 'string' ? biz.out_request_no : trade.outTradeNo;
    const found = trade.refunds.find((r) => r.outRequestNo === outRequestNo);
    // No refund_status means Alipay has no successful refund under that number.
    if (!found)
      return { code: '10000', msg: 'Success', out_trade_no: trade.outTradeNo, trade_no: trade.tradeNo };
    return {
      code: '10000',
      msg: 'Success',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      out_request_no: outRequestNo,
      total_amount: yuan(trade.cents),
      refund_amount: yuan(found.cents),
      refund_status: 'REFUND_SUCCESS',
    };
  }

  const API: Record<string, (biz: Record<string, unknown>) => Record<string, unknown>> = {
    'alipay.trade.query': query,
    'alipay.trade.refund': refund,
    'alipay.trade.fastpay.refund.query': refundQuery,
  };

  // ---- HTTP ----

  async function gateway(req: IncomingMessage, res: ServerResponse, url: URL) {
    let params: Node;
    try {
      params = await paramsOf(req, url);
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      return answer(res, undefined, {
        code: err.code,
        msg: MSG[err.code],
        sub_code: err.subCode,
        sub_msg: err.subMsg,
      });
    }
    const method = params.method;
    if (method === 'alipay.trade.wap.pay') {
      try {
        const trade = openTrade(params, checkRequest(params));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(cashierPage(trade));
      } catch (err) {
        if (!(err instanceof GatewayError)) throw err;
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(errorPage(err));
      }
    }
    const run = method ? API[method] : undefined;
    if (!run) {
      return answer(res, undefined, {
        code: '40002',
        msg: 'Invalid Arguments',
        sub_code: 'isv.invalid-method',
        sub_msg: '不存在的方法名',
      });
    }
    try {
      return answer(res, method, run(checkRequest(params)));
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      return answer(res, method, {
        code: err.code,
        msg: MSG[err.code],
        sub_code: err.subCode,
        sub_msg: err.subMsg,
      });
    }
  }

  /** The cashier's 确认付款: pay, notify (in the background, as Alipay does), send the payer back. */
  function confirm(res: ServerResponse, tradeNo: string) {
    const trade = byTradeNo.get(tradeNo);
    if (!trade) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(errorPage(business('ACQ.TRADE_NOT_EXIST', '交易不存在')));
    }
    try {
      markPaid(trade);
    } catch {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(errorPage(business('ACQ.TRADE_HAS_CLOSE', '交易已经关闭')));
    }
    if (!trade.returnUrl) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        page(
          '支付成功',
          `<div class="card"><p>支付成功</p><div class="amount">¥${yuan(trade.cents)}</div></div>`,
        ),
      );
    }
    res.writeHead(302, { location: returnLocation(trade, trade.returnUrl) });
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const confirmPath = /^\/cashier\/([0-9]+)\/confirm$/.exec(url.pathname);
    let handled: unknown;
    if (url.pathname === '/gateway.do' && (req.method === 'GET' || req.method === 'POST'))
      handled = gateway(req, res, url);
    else if (confirmPath?.[1] && req.method === 'POST') handled = confirm(res, confirmPath[1]);
    else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found');
    }
    Promise.resolve(handled).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(err instanceof Error ? err.message : 'error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const snapshot = (trade: FakeTrade): FakeTrade => ({
    ...trade,
    refunds: trade.refunds.map((r) => ({ ...r })),
  });

  return {
    origin,
    /** What ALIPAY_GATEWAY points at. */
    gateway: `${origin}/gateway.do`,
    appId: opts.appId,
    sellerId,
    /** Alipay's public key (PEM), what ALIPAY_PUBLIC_KEY holds. */
    alipayPublicKey: alipayKeys.publicKey,

    /** The payer pays without a browser (the trade must exist: the pay URL was opened). */
    pay(outTradeNo: string): FakeTrade {
      const trade = byOutTradeNo.get(outTradeNo);
      if (!trade) throw new Error(`no trade for ${outTradeNo}: open its pay URL first`);
      markPaid(trade);
      return snapshot(trade);
    },
    /** Closes an unpaid trade, as Alipay does at its time-out. */
    closeTrade(outTradeNo: string) {
      const trade = byOutTradeNo.get(outTradeNo);
      if (trade?.status === 'WAIT_BUYER_PAY') trade.status = 'TRADE_CLOSED';
    },
    /** Every notification Alipay owed, in order, with each attempt and its answer. */
    notifications(): FakeNotification[] {
      return notifications.map((n) => ({ ...n, attempts: [...n.attempts] }));
    },
    /** The next `count` notifications are lost on the way: never delivered, never retried. */
    dropNotifications(count = 1) {
      dropCount = count;
    },
    /** The next `count` API answers carry a signature by some other key than Alipay's. */
    breakSignatures(count = 1) {
      breakCount = count;
    },
    trades(): FakeTrade[] {
      return [...byOutTradeNo.values()].map(snapshot);
    },
    trade(outTradeNo: string): FakeTrade | undefined {
      const trade = byOutTradeNo.get(outTradeNo);
      if (trade) closeIfExpired(trade);
      return trade && snapshot(trade);
    },
    /** The fields Alipay would notify for this trade now, unsigned, with any changed. */
    notificationFields,
    /** A form body signed as Alipay signs it, with its private key unless another is given (a forger's). */
    signNotification,
    /** Resolves when every notification under way is acknowledged or given up. */
    async settled() {
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
    },
    async close() {
      stopping.abort();
      await Promise.allSettled([...deliveries]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
