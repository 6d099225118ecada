import { useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { TopBar } from '../../components/top-bar.tsx';
import { purchasePath } from '../../lib/paths.ts';
import { safeGoUrl } from './pay-helpers.ts';
import './purchase.css';

/**
 * When the cashier returns the frame to our own app (vueReturnUrl), the app is lifted out of the frame to the
 * whole window, so the reader does not end up with the site inside itself.
 */
function liftReturnedApp(frame: HTMLIFrameElement) {
  try {
    const win = frame.contentWindow;
    if (win && win.location.origin === location.origin && win.__APP_CONFIG__ !== undefined)
      location.replace(win.location.href);
  } catch {
    // Another origin (the dynamic API's host): still on the cashier.
  }
}

/** /user/purchase/pay?goUrl=: a cashier (an app channel's payUrl) in a frame that fills the screen. */
export default function PayPage() {
  const [search] = useSearchParams();
  const goUrl = safeGoUrl(search.get('goUrl'));
  const frame = useRef<HTMLIFrameElement>(null);
  return (
    <main className="page pay-page">
      <TopBar title="支付" />
      {goUrl ? (
        <iframe
          ref={frame}
          className="pay-frame"
          title="支付"
          src={goUrl}
          onLoad={() => frame.current && liftReturnedApp(frame.current)}
        />
      ) : (
        <div className="pay-refused" role="alert">
          <p>支付地址无效，无法打开支付页面。</p>
          <p>
            请返回 <Link to={purchasePath()}>充值中心</Link> 重新发起充值。
          </p>
        </div>
      )}
    </main>
  );
}
