import type { SandboxPayment } from './sandbox.repository.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const yuan = (cents: number) => (cents / 100).toFixed(2);

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 -apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;
background:#f2f3f5;color:#222}header{background:#1677ff;color:#fff;padding:12px 16px;font-size:17px}
main{max-width:480px;margin:0 auto;padding:16px}.card{background:#fff;border-radius:10px;padding:20px 16px;margin-bottom:16px}
.amount{font-size:34px;font-weight:600;text-align:center;margin:8px 0 16px}dl{margin:0;display:grid;
grid-template-columns:auto 1fr;gap:6px 12px;font-size:14px}dt{color:#888}dd{margin:0;word-break:break-all;text-align:right}
button,a.button{display:block;width:100%;padding:12px;border:0;border-radius:8px;font-size:17px;margin-top:12px;
text-align:center;text-decoration:none}.pay{background:#1677ff;color:#fff}.cancel{background:#fff;color:#555;border:1px solid #ddd}
.note{font-size:12px;color:#999;text-align:center}.state{text-align:center;font-size:18px;margin:8px 0}`;

function layout(title: string, body: string) {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,maximum-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header>沙箱收银台</header><main>${body}</main></body></html>`;
}

/**
 * The sandbox gateway's cashier: what a real provider's payment page shows, in Chinese, phone-sized. The web
 * app may show it in its pay frame; the way back to the merchant replaces the whole page (target _top).
 */
export function cashierPage(payment: SandboxPayment, merchantName: string, actionBase: string) {
  const details = `<dl><dt>收款方</dt><dd>${escapeHtml(merchantName)}</dd>
<dt>商户订单号</dt><dd data-order-no>${escapeHtml(payment.orderNo)}</dd><dt>交易号</dt><dd>${escapeHtml(payment.tradeNo)}</dd></dl>`;
  const amount = `<div class="amount">¥${yuan(payment.amount)}</div>`;
  const back = `<a class="button cancel" href="${escapeHtml(payment.returnUrl)}" target="_top">返回商户</a>`;
  if (payment.status === 'paid') {
    return layout(
      '支付成功',
      `<div class="card"><p class="state">支付成功</p>${amount}${details}</div>${back}`,
    );
  }
  if (payment.status === 'cancelled') {
    return layout(
      '已取消',
      `<div class="card"><p class="state">订单已取消</p>${amount}${details}</div>${back}`,
    );
  }
  const action = `${actionBase}/${escapeHtml(payment.tradeNo)}`;
  return layout(
    '确认支付',
    `<div class="card">${amount}${details}</div>
<form method="post" action="${action}/confirm" target="_top"><button class="pay" type="submit">确认支付</button></form>
<form method="post" action="${action}/cancel" target="_top"><button class="cancel" type="submit">取消</button></form>
<p class="note">请记下商户订单号：找回充值账号时需要填写它</p>
<p class="note">这是沙箱支付，不会产生真实扣款</p>`,
  );
}

export function cashierMessage(title: string, text: string) {
  return layout(title, `<div class="card"><p class="state">${escapeHtml(text)}</p></div>`);
}
