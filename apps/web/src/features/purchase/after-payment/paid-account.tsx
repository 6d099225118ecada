import type { LastPaidOrder } from '@yueman/contract';
import { Toast } from 'antd-mobile';
import { copyText } from '../../../lib/clipboard.ts';

async function copy(text: string) {
  const copied = await copyText(text);
  Toast.show({ content: copied ? '账号和密码已复制' : '请长按选择文字复制', duration: 1500 });
}

/**
 * After 已完成支付: the account and password to keep (and the order number, which find-account asks for), with a
 * nudge to bind a mobile.
 */
export function PaidAccount(props: {
  account: string;
  password: string;
  order: LastPaidOrder;
  mobile: string;
}) {
  const { account, password, order } = props;
  return (
    <div className="after-pay-body" data-testid="after-pay-account">
      <p>换手机或清除浏览器数据后，请用此账号登录，充值不会丢失。</p>
      <dl className="after-pay-fields">
        <div>
          <dt>账号</dt>
          <dd data-testid="after-pay-account-name">{account || '—'}</dd>
        </div>
        <div>
          <dt>密码</dt>
          <dd data-testid="after-pay-password">{password || '—'}</dd>
        </div>
        {order && (
          <div>
            <dt>订单号</dt>
            <dd data-testid="after-pay-order-no">{order.orderNo}</dd>
          </div>
        )}
      </dl>
      {order && <p className="after-pay-hint">找回账号时需要填写支付日期和订单号，请一并保存。</p>}
      {account && password && (
        <button
          type="button"
          className="after-pay-copy"
          onClick={() =>
            void copy(`账号：${account} 密码：${password}${order ? ` 订单号：${order.orderNo}` : ''}`)
          }
        >
          {order ? '复制账号、密码和订单号' : '复制账号和密码'}
        </button>
      )}
      {!props.mobile && <p className="after-pay-hint">建议绑定手机号，忘记密码也能登录。</p>}
    </div>
  );
}
