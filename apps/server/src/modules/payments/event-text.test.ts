// The order page's events read in Chinese: every form the payment code writes, old events included.
import { describe, expect, it } from 'vitest';
import { eventText } from './event-text.ts';

describe('an order event’s detail as the console shows it', () => {
  it.each([
    ['3000阅币 via wechat_h5, 2850 cents', '3000阅币，微信 H5 支付，应付 ¥28.50'],
    ['sandbox trade SB20261128001', '沙箱支付已收款，交易号 SB20261128001'],
    ['alipay says closed', '支付宝答复：已关闭'],
    ['wechat_pay says NOTPAY', '微信支付答复：未支付'],
    ['refused: amount 100, order asks 2850', '已拒绝：金额 ¥1.00 与订单应付 ¥28.50 不符'],
    ['refused: merchant M9 is not ours', '已拒绝：商户号 M9 不是我们的'],
    ['refused: bad signature', '已拒绝：网关原文：bad signature'],
    ['second payment T2 (first T1): refund it', '重复付款：交易 T2（首次付款 T1），请退还这笔'],
    ['sandbox refund RF0A 600 cents: success', '沙箱支付退款 RF0A：¥6.00，成功'],
    [
      'alipay refund RF0B 600 cents: failed (refund of 600 cents out of 500)',
      '支付宝退款 RF0B：¥6.00，失败（退款 ¥6.00（共付 ¥5.00））',
    ],
    ['wechat_pay refund RF0C: success (not ours)', '微信支付退款 RF0C：成功（不是本站发起的退款）'],
    ['JSAPI order made; the payer is sent to WeChat’s cashier', '已在微信下单，付款人前往微信收银台'],
    ['退款 RF0D：收回 600 阅币', '退款 RF0D：收回 600 阅币'],
  ])('%s', (detail, shown) => {
    expect(eventText(detail)).toBe(shown);
  });
});
