import type { ChapterInfo } from '@yueman/contract';
import { Checkbox } from 'antd-mobile';
import { useAutoBuyStore } from '../auto-buy-store.ts';
import { useFade } from '../hooks/use-fade.ts';
import { MESSAGES } from '../reader-helpers.ts';

/**
 * The buy confirmation (kind 'buy') and the recharge prompt (kind 'recharge'): the chapter price, the VIP hint,
 * 自动购买下一话 and the balance; they differ in the button (spec section 2, Reader).
 */
export function PayOverlay({
  kind,
  show,
  info,
  balance,
  onBuy,
  onRecharge,
}: {
  kind: 'buy' | 'recharge';
  show: boolean;
  info: ChapterInfo;
  balance: number;
  onBuy(): void;
  onRecharge(): void;
}) {
  const { opacity, mounted } = useFade(show);
  const autoBuy = useAutoBuyStore((s) => s.bookIds.includes(info.bookId));
  const toggleAutoBuy = useAutoBuyStore((s) => s.toggle);
  if (!mounted) return null;
  return (
    <div
      className={`reader-pay reader-pay-${kind}`}
      style={{ opacity, pointerEvents: show ? 'auto' : 'none' }}
      role="dialog"
      aria-label={kind === 'buy' ? '购买本章节' : '阅币不足'}
    >
      <div className="reader-pay-lock" aria-hidden />
      <p className="reader-pay-chapter">{info.title}</p>
      <p className="reader-pay-note">本话为付费章节，购买后即可阅读</p>
      <div className="reader-pay-card">
        <div className="reader-pay-price">
          <span>本话价格</span>
          <strong>
            {info.bookPrice}
            <small>阅币</small>
          </strong>
        </div>
        <p className={`reader-pay-vip ${info.bookVipFree ? '' : 'is-not-free'}`}>
          {info.bookVipFree ? MESSAGES.vip : MESSAGES.notVipFree}
        </p>
        <Checkbox
          className="reader-pay-auto"
          checked={autoBuy}
          onChange={() => toggleAutoBuy(info.bookId)}
          style={{ '--icon-size': '18px', '--font-size': '14px', '--gap': '6px' }}
        >
          自动购买下一话
        </Checkbox>
        {kind === 'buy' ? (
          <button type="button" className="reader-pay-button" onClick={onBuy}>
            购买本章节
          </button>
        ) : (
          <button type="button" className="reader-pay-button is-recharge" onClick={onRecharge}>
            阅币不足，前往充值
          </button>
        )}
        <p className="reader-pay-balance">
          余额：<span>{balance}</span>阅币
        </p>
      </div>
    </div>
  );
}
