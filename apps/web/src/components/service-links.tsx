import { Link } from 'react-router';
import { homePath, reportPath } from '../lib/paths.ts';
import { qqChatLink } from '../lib/service-addresses.ts';
import { useUserStore } from '../lib/user-store.ts';

/** Every page has a complaint link and a customer-service link (spec section 1). */
export function ServiceLinks() {
  const { commonInfo, userInfo } = useUserStore();
  const back = typeof location === 'undefined' ? homePath() : location.pathname + location.search;
  const qq = commonInfo?.customerServiceQQ;
  const serviceUrl = qq ? qqChatLink(qq) : '';
  return (
    <footer className="service-links">
      <Link to={reportPath(back, serviceUrl)}>投诉举报</Link>
      <span aria-hidden>·</span>
      {commonInfo?.customerServiceEmail ? (
        <a
          href={`mailto:${commonInfo.customerServiceEmail}?subject=${encodeURIComponent(`账号 ${userInfo?.account ?? ''}`)}`}
        >
          联系客服
        </a>
      ) : (
        <span>联系客服</span>
      )}
      {qq && <span className="service-qq">客服QQ {qq}</span>}
    </footer>
  );
}
