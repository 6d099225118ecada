// An order event's detail as the console shows it: in Chinese. The events keep what the payment code wrote (the
// gateway's words, for whoever reads the database or the logs); the console's order page reads them through here,
// so old events read as new ones do. A line of no known form is shown as written.

const GATEWAY_NAMES: Record<string, string> = {
  sandbox: '沙箱支付',
  alipay: '支付宝',
  wechat_pay: '微信支付',
};
const CHANNEL_NAMES: Record<string, string> = {
  alipay_wap: '支付宝手机网站支付',
  alipay_app: '支付宝 App 支付',
  wechat_h5: '微信 H5 支付',
  wechat_jsapi: '微信内支付',
  sandbox: '沙箱支付',
};
/** The states gateways answer with (ours and theirs). */
const STATE_NAMES: Record<string, string> = {
  success: '成功',
  processing: '处理中',
  failed: '失败',
  paid: '已支付',
  unpaid: '未支付',
  'not paid': '未支付',
  closed: '已关闭',
  unknown: '查无此单',
  WAIT_BUYER_PAY: '等待付款',
  TRADE_CLOSED: '交易已关闭',
  TRADE_SUCCESS: '交易成功',
  TRADE_FINISHED: '交易完结',
  NOTPAY: '未支付',
  CLOSED: '已关闭',
  USERPAYING: '付款中',
  PAYERROR: '支付失败',
  REFUND: '已转入退款',
  SUCCESS: '成功',
};

const gatewayName = (code: string) => GATEWAY_NAMES[code] ?? `支付网关 ${code}`;
const channelName = (code: string) => CHANNEL_NAMES[code] ?? `支付渠道 ${code}`;
const stateName = (state: string) => STATE_NAMES[state] ?? `“${state}”`;
const yuanOf = (cents: string) => `¥${(Number(cents) / 100).toFixed(2)}`;

/** Why a gateway's answer was refused, in Chinese where its form is known. */
function reasonText(reason: string): string {
  const forms: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^unknown order (\S+)$/, (m) => `没有订单 ${m[1]}`],
    [/^order (\S+)$/, (m) => `网关答的是另一笔订单 ${m[1]}`],
    [/^merchant (\S+) is not ours$/, (m) => `商户号 ${m[1]} 不是我们的`],
    [/^order is on gateway (\S+)$/, (m) => `订单属于${gatewayName(m[1] as string)}`],
    [/^order is on channel (\S+)$/, (m) => `订单属于${channelName(m[1] as string)}`],
    [
      /^amount (\d+), order asks (\d+)$/,
      (m) => `金额 ${yuanOf(m[1] as string)} 与订单应付 ${yuanOf(m[2] as string)} 不符`,
    ],
    [
      /^refund of (\d+) cents out of (\d+)$/,
      (m) => `退款 ${yuanOf(m[1] as string)}（共付 ${yuanOf(m[2] as string)}）`,
    ],
  ];
  for (const [form, text] of forms) {
    const m = form.exec(reason);
    if (m) return text(m);
  }
  return /[A-Za-z]{3}/.test(reason) ? `网关原文：${reason}` : reason;
}

const FORMS: [RegExp, (m: RegExpExecArray) => string][] = [
  // Made by the order: `<pack> via <channel>, <cents> cents`.
  [
    /^(.*) via (\S+), (\d+) cents$/,
    (m) => `${m[1]}，${channelName(m[2] as string)}，应付 ${yuanOf(m[3] as string)}`,
  ],
  [/^(\S+) trade (\S+)$/, (m) => `${gatewayName(m[1] as string)}已收款，交易号 ${m[2]}`],
  [/^(\S+) says (.+)$/, (m) => `${gatewayName(m[1] as string)}答复：${stateName(m[2] as string)}`],
  [/^refused: (.+)$/, (m) => `已拒绝：${reasonText(m[1] as string)}`],
  [
    /^second payment (\S+) \(first (\S+)\): refund it$/,
    (m) => `重复付款：交易 ${m[1]}（首次付款 ${m[2]}），请退还这笔`,
  ],
  [
    /^(\S+) refund (\S+) (\d+) cents: (\S+)(?: \((.*)\))?$/,
    (m) =>
      `${gatewayName(m[1] as string)}退款 ${m[2]}：${yuanOf(m[3] as string)}，${stateName(m[4] as string)}${m[5] ? `（${reasonText(m[5])}）` : ''}`,
  ],
  [
    /^(\S+) refund (\S+): (\S+?)( \(not ours\))?$/,
    (m) =>
      `${gatewayName(m[1] as string)}退款 ${m[2]}：${stateName(m[3] as string)}${m[4] ? '（不是本站发起的退款）' : ''}`,
  ],
  [/^JSAPI order made; the payer is sent to WeChat’s cashier$/, () => '已在微信下单，付款人前往微信收银台'],
  [/^OAuth refused: (.*)$/, (m) => `微信授权未通过：${reasonText(m[1] as string)}`],
];

/** An order event's detail in Chinese (as written when of no known form). */
export function eventText(detail: string): string {
  for (const [form, text] of FORMS) {
    const m = form.exec(detail);
    if (m) return text(m);
  }
  return detail;
}
