import { qqChatLink } from '../../../lib/service-addresses.ts';
import { useUserStore } from '../../../lib/user-store.ts';

/** Customer-service hours on the recharge centre (spec section 9). */
export const PURCHASE_SERVICE_HOURS = '10:00-21:00';

/** A customer-service link carrying the reader's account, so the agent knows whose payment it is. */
export function ServiceContact({ label = '联系客服' }: { label?: string }) {
  const { commonInfo, userInfo } = useUserStore();
  const email = commonInfo?.customerServiceEmail;
  const qq = commonInfo?.customerServiceQQ;
  const subject = encodeURIComponent(`充值问题 账号 ${userInfo?.account ?? ''}`);
  return (
    <span className="service-contact">
      {email ? (
        <a href={`mailto:${email}?subject=${subject}`}>{label}</a>
      ) : qq ? (
        <a href={qqChatLink(qq)}>{label}</a>
      ) : (
        <span>{label}</span>
      )}
      {qq && <span className="service-contact-qq">（QQ {qq}）</span>}
    </span>
  );
}
