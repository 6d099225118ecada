import { Toast } from 'antd-mobile';
import { useState } from 'react';
import { Link } from 'react-router';
import { CopyField } from '../../components/copy-field.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { ensureUser, useUserInfo } from '../../lib/api/user-info.ts';
import { dynamicCallsWaitFor } from '../../lib/api-client.ts';
import { copyText } from '../../lib/clipboard.ts';
import {
  bindPath,
  findAccountPath,
  loginPath,
  passwordPath,
  purchasePath,
  recordsPath,
  shelfPath,
  ticketsPath,
} from '../../lib/paths.ts';
import { isVip, useUserStore } from '../../lib/user-store.ts';
import { CheckinCard } from './checkin-card.tsx';
import { MonthlyCardPanel } from './monthly-card.tsx';
import './user.css';

async function copy(text: string, what: string) {
  const copied = await copyText(text);
  Toast.show({ content: copied ? `${what}已复制` : `请长按复制${what}`, duration: 1500 });
}

/** /user: the account centre (spec section 2); balance and VIP are read again each time it opens. */
export default function UserPage() {
  const info = useUserInfo();
  const userInfo = useUserStore((s) => s.userInfo);
  // No account to show and none could be read (start-up's registration failed too): say so, with 重试, which
  // does start-up's step again.
  const [retrying, setRetrying] = useState(false);
  const failed = !userInfo && info.isError && !info.isFetching && !retrying;
  const retry = () => {
    setRetrying(true);
    const user = ensureUser();
    dynamicCallsWaitFor(user);
    void user
      .catch(() => undefined)
      .then(() => info.refetch())
      .finally(() => setRetrying(false));
  };
  const password = useUserStore((s) => s.password);
  const vip = isVip(userInfo);
  const vipEnd = vip && userInfo?.vipEndDate ? userInfo.vipEndDate : '未开通';

  return (
    <main className="page page-grey user-page">
      <header className="user-head">
        <div className="user-avatar" aria-hidden />
        <div className="user-id">
          <p className="user-name">
            {userInfo ? userInfo.account : failed ? '加载失败' : '正在登录…'}
            {vip && <span className="user-vip-badge">VIP</span>}
          </p>
          {failed ? (
            <button type="button" className="user-retry" onClick={retry}>
              重试
            </button>
          ) : (
            <p className="user-tip">
              {userInfo?.mobile ? `已绑定手机 ${userInfo.mobile}` : '游客账号，请牢记账号和密码'}
            </p>
          )}
        </div>
        <Link to={loginPath()} className="user-switch">
          切换账号
        </Link>
      </header>

      <section className="user-card" aria-label="账号信息">
        <dl className="user-fields">
          <CopyField label="账号" value={userInfo?.account ?? ''} testId="user-account" onCopy={copy} />
          <CopyField
            label="密码"
            value={password}
            testId="user-password"
            onCopy={copy}
            // Signed in by a hand-off link (or with a password this phone never saw): say how to get one to log in with.
            empty={
              userInfo && (
                <Link to={passwordPath()} className="user-password-hint">
                  本机未保存，可在修改密码中设置
                </Link>
              )
            }
          />
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
        <Link to={purchasePath()} className="user-recharge">
          充值
        </Link>
      </section>

      {userInfo && <CheckinCard />}
      {userInfo && <MonthlyCardPanel />}

      {!vip && (
        <Link to={purchasePath()} className="user-vip-banner">
          <span>
            <b>开通VIP，海量漫画免费看</b>
            <small>畅读VIP免费作品</small>
          </span>
          <span className="user-vip-go">立即开通</span>
        </Link>
      )}

      <nav className="user-menu" aria-label="更多">
        <Link to={shelfPath()}>我的收藏</Link>
        <Link to={shelfPath('history')}>阅读历史</Link>
        <Link to={recordsPath()}>消费记录</Link>
        <Link to={ticketsPath()}>我的阅读券</Link>
        <Link to={bindPath()}>
          绑定手机
          {userInfo?.mobile && <span className="user-menu-value">{userInfo.mobile}</span>}
        </Link>
        <Link to={passwordPath()}>修改密码</Link>
        <Link to={findAccountPath()}>找回充值账号</Link>
      </nav>

      <p className="user-hours">客服在线时间：11:00-21:00</p>
      <ServiceLinks />
    </main>
  );
}
