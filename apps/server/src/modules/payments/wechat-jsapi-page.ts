import type { FastifyReply } from 'fastify';
import type { BridgeParams } from './gateways/wechat-jsapi.ts';

// The page a reader paying inside WeChat lands on after the official account's OAuth: it hands WeChat's bridge
// the signed prepay_id (the bridge opens WeChat's own cashier sheet), and sends the reader back to the page they
// came from once WeChat says paid or cancelled. Its script is a file of its own (no inline script under the CSP).

export const BRIDGE_SCRIPT_PATH = '/h5/pay/wechat/bridge.js';

/** Scripts from ourselves only (the bridge is WeChat's, injected by its browser), nothing framed, nothing posted. */
export const jsapiPagePolicy =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script> element: `<` escaped so no text can close it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 -apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;
background:#f2f3f5;color:#222}main{max-width:480px;margin:0 auto;padding:24px 16px}.card{background:#fff;border-radius:10px;
padding:24px 16px;text-align:center}.amount{font-size:34px;font-weight:600;margin:8px 0}.subject{color:#666;margin:0}
.order{color:#999;font-size:12px;word-break:break-all}.state{min-height:24px;margin:16px 0 0;color:#555}
button,a.button{display:block;width:100%;padding:12px;border:0;border-radius:8px;font-size:17px;margin-top:12px;
text-align:center;text-decoration:none}.pay{background:#07c160;color:#fff}.back{background:#fff;color:#555;border:1px solid #ddd}`;

function layout(title: string, body: string, script = '') {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,maximum-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main>${script}</body></html>`;
}

const yuan = (cents: number) => (cents / 100).toFixed(2);

export function jsapiPayPage(p: {
  orderNo: string;
  amount: number;
  subject: string;
  returnUrl: string;
  bridge: BridgeParams;
}) {
  const data = scriptJson({ bridge: p.bridge, returnUrl: p.returnUrl });
  return layout(
    '微信支付',
    `<div class="card"><p class="subject">${escapeHtml(p.subject)}</p><p class="amount">¥${yuan(p.amount)}</p>
<p class="order">商户订单号 <span data-order-no>${escapeHtml(p.orderNo)}</span></p>
<p class="state" id="state" role="status">正在打开微信支付…</p></div>
<button class="pay" id="pay" type="button">确认支付</button>
<a class="button back" href="${escapeHtml(p.returnUrl)}">返回</a>`,
    `<script type="application/json" id="wechat-pay">${data}</script><script src="${BRIDGE_SCRIPT_PATH}"></script>`,
  );
}

/** A page that says what happened and offers the way back: a refused payment in the reader's own browser. */
export function payMessagePage(title: string, text: string, returnUrl: string) {
  return layout(
    title,
    `<div class="card"><p class="state" role="status">${escapeHtml(text)}</p></div>
<a class="button back" href="${escapeHtml(returnUrl)}">返回</a>`,
  );
}

/** An order that cannot be paid here (paid already, expired, not this reader's): what happened, and the way back. */
export const jsapiMessagePage = (text: string, returnUrl: string) =>
  payMessagePage('微信支付', text, returnUrl);

/**
 * Runs in the reader's WeChat: asks the bridge once it is ready, and again on the button (a reader who closed
 * WeChat's sheet). Paid or cancelled, the reader goes back; the after-payment dialog there asks the server.
 */
export const BRIDGE_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('wechat-pay').textContent);
  var state = document.getElementById('state');
  var button = document.getElementById('pay');
  function back() { location.replace(data.returnUrl); }
  function pay() {
    if (typeof WeixinJSBridge === 'undefined') { state.textContent = '请在微信中打开此页面完成支付'; return; }
    button.disabled = true;
    WeixinJSBridge.invoke('getBrandWCPayRequest', data.bridge, function (res) {
      button.disabled = false;
      var said = res && res.err_msg;
      if (said === 'get_brand_wcpay_request:ok') { state.textContent = '支付成功，正在返回…'; back(); }
      else if (said === 'get_brand_wcpay_request:cancel') state.textContent = '已取消支付，可再次点击确认支付';
      else state.textContent = '支付未完成，请稍后重试';
    });
  }
  button.addEventListener('click', pay);
  if (typeof WeixinJSBridge === 'undefined') document.addEventListener('WeixinJSBridgeReady', pay, false);
  else pay();
  setTimeout(function () {
    if (typeof WeixinJSBridge === 'undefined') state.textContent = '请在微信中打开此页面完成支付';
  }, 3000);
})();
`;

/** Sends one of these pages: never cached (each is one order's or one refusal's), under the pages' policy. */
export const sendPayPage = (reply: FastifyReply, status: number, html: string) =>
  reply
    .code(status)
    .header('Content-Security-Policy', jsapiPagePolicy)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
