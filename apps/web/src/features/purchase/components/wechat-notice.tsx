import { Link } from 'react-router';
import { loginPath, openInBrowserPath, purchasePath } from '../../../lib/paths.ts';

/**
 * In WeChat's own browser the recharge centre offers only WeChat Pay, and pays into the account this browser holds,
 * which is not the one of the reader's phone browser unless they log in to it here first.
 */
export function WechatNotice({ account, canPay }: { account: string; canPay: boolean }) {
  if (!canPay)
    return (
      <p className="purchase-wechat" role="note">
        微信内暂不支持充值，请
        <Link to={openInBrowserPath(purchasePath())} replace>
          在浏览器中打开
        </Link>
        后充值。
      </p>
    );
  return (
    <p className="purchase-wechat" role="note">
      微信内仅支持微信支付，阅币将充入当前账号 {account}。如需为浏览器中的账号充值，请先
      <Link to={loginPath()}>登录该账号</Link>。
    </p>
  );
}
