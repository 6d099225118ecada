import { Toast } from 'antd-mobile';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { showAlert } from '../../components/alert.ts';
import { useHandoffLink } from '../../lib/api/handoff.ts';
import { useRecharge } from '../../lib/api/recharge.ts';
import { appType } from '../../lib/app-type.ts';
import { copyText } from '../../lib/clipboard.ts';
import { purchasePath } from '../../lib/paths.ts';
import { isChatAppBrowser, isWechatBrowser } from '../../lib/user-agent.ts';
import { safeReturnPath } from './safe-return.ts';
import './support.css';

/**
 * Inside WeChat, when the server offers a channel that pays there (WeChat Pay by JSAPI), the prompt also leads to the
 * recharge centre. QQ and other browsers never ask.
 */
function useCanPayInWechat() {
  const inWechat = isWechatBrowser();
  const recharge = useRecharge(appType(), inWechat);
  return inWechat && (recharge.data?.subTypes.length ?? 0) > 0;
}

/** /open-in-browser: WeChat and QQ readers are asked to open the site in the system browser (spec section 1). */
export default function OpenInBrowserPage() {
  const [params] = useSearchParams();
  const from = safeReturnPath(params.get('from'));
  const handoff = useHandoffLink(from, isChatAppBrowser());
  // The link carries the account into the other browser; the plain address until it is there (or if it fails).
  const address = handoff.data?.url ?? location.origin + from;
  const canPayHere = useCanPayInWechat();
  // WeChat's and QQ's 在浏览器打开 open the address this page is at: it becomes the link, so that way keeps the
  // account too. The router is not told: the screen stays this one.
  useEffect(() => {
    if (handoff.data) history.replaceState(history.state, '', handoff.data.url);
  }, [handoff.data]);

  const copy = async () => {
    if (await copyText(address)) Toast.show({ icon: 'success', content: '链接已复制', duration: 1500 });
    else showAlert('请长按链接复制');
  };

  return (
    <main className="oib-page">
      <div className="oib-arrow">
        <svg viewBox="0 0 120 120" width="120" height="120" aria-hidden="true">
          <path
            d="M18 110 C 30 60, 60 30, 100 18"
            fill="none"
            stroke="#fff"
            strokeWidth="5"
            strokeLinecap="round"
            strokeDasharray="7 9"
          />
          <path
            d="M78 12 L 106 16 L 96 42"
            fill="none"
            stroke="#fff"
            strokeWidth="6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </div>
      <section className="oib-card">
        <h1>请在浏览器中打开</h1>
        <ol className="oib-steps">
          <li>
            <span className="oib-step-no">1</span>
            <span>
              点击右上角的 <b className="oib-dots">···</b> 按钮
            </span>
          </li>
          <li>
            <span className="oib-step-no">2</span>
            <span>
              选择 <b>在浏览器打开</b>
            </span>
          </li>
        </ol>
        <p className="oib-why">微信、QQ内无法正常阅读和充值，在浏览器中打开即可畅快看漫画。</p>
        <div className="oib-copy">
          <p>或复制链接，粘贴到手机浏览器中打开：</p>
          <p className="oib-address">{address}</p>
          {handoff.data && <p className="oib-note">链接10分钟内有效，仅可使用一次，打开后继续使用当前账号</p>}
          <button type="button" onClick={() => void copy()}>
            复制链接
          </button>
        </div>
        {canPayHere && (
          <p className="oib-pay-here">
            只想充值？<Link to={purchasePath()}>在微信内充值</Link>
          </p>
        )}
      </section>
    </main>
  );
}
