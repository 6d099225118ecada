import { Toast } from 'antd-mobile';
import { Link } from 'react-router';
import { ServiceLinks } from '../../components/service-links.tsx';
import { useUserInfo } from '../../lib/user-info.ts';
import { isVip, useUserStore } from '../../lib/user-store.ts';
import './user.css';

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    Toast.show({ content: `${what}已复制`, duration: 1500 });
  } catch {
    Toast.show({ content: `请长按复制${what}`, duration: 1500 });
  }
}

/** /user: the account centre (spec section 2); balance and VIP are read again each time it opens. */
export default function UserPage() {
  useUserInfo();
  const userInfo = useUserStore((s) => s.userInfo);
  const password = useUserStore((s) => s.password);
  const vip = isVip(userInfo);
  const vipEnd = vip && userInfo?.vipEndDate ? userInfo.vipEndDate : '未开通';

  return (
    <main className="page user-page">
      <header className="user-head">
        <div className="user-avatar" aria-hidden />
        <div className="user-id">
          <p className="user-name">
            {userInfo ? userInfo.account : '正在登录…'}
            {vip && <span className="user-vip-badge">VIP</span>}
          </p>
          <p className="user-tip">
            {userInfo?.mobile ? `已绑定手机 ${userInfo.mobile}` : '游客账号，请牢记账号和密码'}
          </p>
        </div>
        <Link to="/user/login" className="user-switch">
          切换账号
        </Link>
      </header>

      <section className="user-card" aria-label="账号信息">
        <dl className="user-fields">
          <div className="user-field">
            <dt>账号</dt>
            <dd>
              <span data-testid="user-account">{userInfo?.account ?? '—'}</span>
              {userInfo && (
                <button type="button" onClick={() => void copy(userInfo.account, '账号')}>
                  复制
                </button>
              )}
            </dd>
          </div>
          <div className="user-field">
            <dt>密码</dt>
            <dd>
              <span data-testid="user-password">{password || '—'}</span>
              {password && (
                <button type="button" onClick={() => void copy(password, '密码')}>
                  复制
                </button>
              )}
            </dd>
          </div>
        </dl>
      </section>

      <section className="user-wallet" aria-label="我的资产">
        <div className="user-wallet-item">
          <span className="user-wallet-value" data-testid="user-coins">
            {userInfo?.avaliableAmount ?? 0}
          </span>
          <span className="user-wallet-label">阅币余额</span>
        </div>
        <div className="user-wallet-item">
          <span className="user-wallet-value user-wallet-date" data-testid="user-vip">
            {vipEnd}
          </span>
          <span className="user-wallet-label">VIP到期时间</span>
        </div>
        <Link to="/purchase" className="user-recharge">
          充值
        </Link>
      </section>

      {!vip && (
        <Link to="/purchase" className="user-vip-banner">
          <span>
            <b>开通VIP，海量漫画免费看</b>
            <small>畅读VIP免费作品</small>
          </span>
          <span className="user-vip-go">立即开通</span>
        </Link>
      )}

      <nav className="user-menu" aria-label="更多">
        <Link to="/shelf">我的收藏</Link>
        <Link to="/shelf?active=history">阅读历史</Link>
        <Link to="/user/purchase/history">消费记录</Link>
        <Link to="/user/bind">
          绑定手机
          {userInfo?.mobile && <span className="user-menu-value">{userInfo.mobile}</span>}
        </Link>
        <Link to="/user/password">修改密码</Link>
        <Link to="/user/find-account">找回充值账号</Link>
      </nav>

      <p className="user-hours">客服在线时间：11:00-21:00</p>
      <ServiceLinks />
    </main>
  );
}
