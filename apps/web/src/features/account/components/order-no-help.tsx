/** Where a payer finds the merchant order number of a payment, one line per pay channel. */
const WHERE = [
  ['支付宝', '打开支付宝 → 我的 → 账单 → 该笔充值 → 账单详情中的「商户订单号」'],
  ['微信支付', '打开微信 → 我 → 服务 → 钱包 → 账单 → 该笔充值 → 账单详情中的「商户单号」'],
  ['银行卡及其他', '支付页面和支付完成后的提示中都会显示「商户订单号」，以 YM 开头'],
] as const;

export function OrderNoHelp() {
  return (
    <section className="account-order-help" aria-label="如何找到商户订单号">
      <h2>如何找到商户订单号</h2>
      <ul>
        {WHERE.map(([channel, where]) => (
          <li key={channel}>
            <b>{channel}</b>：{where}
          </li>
        ))}
      </ul>
      <p>支付金额即同一笔账单中的实付金额，单位为元，如 30 或 30.00。</p>
    </section>
  );
}
