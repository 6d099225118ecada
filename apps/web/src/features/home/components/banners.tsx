import { Link } from 'react-router';
import { purchasePath } from '../../../lib/paths.ts';
import { isVip, useUserStore } from '../../../lib/user-store.ts';

/** Download the app, or add the site to the home screen. */
export function DownloadBanner() {
  const url = useUserStore((s) => s.commonInfo?.appDownloadUrl);
  // A hint to read rather than an alert: longer on screen and not modal. Toast loads on tap, keeping its
  // animation library off the home screen's first load.
  const hint = () =>
    void import('antd-mobile/es/components/toast').then(({ default: Toast }) =>
      Toast.show({ content: '点击浏览器菜单中的“添加到主屏幕”，即可把阅漫添加到桌面', duration: 2500 }),
    );
  return (
    <div className="home-download" data-testid="home-download">
      <span className="home-download-logo" aria-hidden>
        阅
      </span>
      <span className="home-download-text">
        <strong>阅漫</strong>
        <small>海量热门漫画，随时看</small>
      </span>
      {url ? (
        <a className="home-download-btn" href={url}>
          下载APP
        </a>
      ) : null}
      <button type="button" className="home-download-btn home-download-desk" onClick={hint}>
        添加到桌面
      </button>
    </div>
  );
}

/** The VIP sales banner; VIP readers do not see it (spec section 2). */
export function VipBanner() {
  const vip = useUserStore((s) => isVip(s.userInfo));
  if (vip) return null;
  return (
    <Link to={purchasePath()} className="home-vip" data-testid="home-vip">
      <span className="home-vip-badge">VIP</span>
      <span className="home-vip-text">开通VIP，海量漫画免费看</span>
      <span className="home-vip-go">立即开通</span>
    </Link>
  );
}
