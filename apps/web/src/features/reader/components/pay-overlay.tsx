import type { ChapterInfo, UnlockBy, UnlockOptions } from '@yueman/contract';
import { Checkbox } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useAutoBuyStore } from '../auto-buy-store.ts';
import { useFade } from '../hooks/use-fade.ts';
import { MESSAGES } from '../reader-helpers.ts';
import { useReaderSettings } from '../reader-settings-store.ts';
import { chinaTime, timeLeft, type UnlockChoice, unlockChoices } from '../unlock-choices.ts';

/** Now, again every 30 s while `on`: the wait's gauge and time left move, and its button appears when it is over. */
function useNow(on: boolean) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

/** One way besides coins: a ticket, wait-for-free, the bundle (coins keep the card's own price and button). */
function OtherWay({
  choice,
  now,
  onUnlock,
}: {
  choice: Exclude<UnlockChoice, { by: 'coins' }>;
  now: number;
  onUnlock(by: Exclude<UnlockBy, 'coins'>): void;
}) {
  if (choice.by === 'ticket') {
    return (
      <div className="reader-way">
        <div className="reader-way-text">
          <strong>阅读券</strong>
          <span>
            剩{choice.usable}张{choice.nextExpiresAt !== null && ` · ${chinaTime(choice.nextExpiresAt)}到期`}
          </span>
        </div>
        <button type="button" className="reader-way-button" onClick={() => onUnlock('ticket')}>
          用券解锁
        </button>
      </div>
    );
  }
  if (choice.by === 'wait_free') {
    return (
      <div className="reader-way">
        <div className="reader-way-text">
          <strong>等就免费</strong>
          <span>
            {choice.ready
              ? `可免费看${choice.rentalHours}小时`
              : `还需${timeLeft(choice.readyAt, now)} · ${chinaTime(choice.readyAt)}可免费`}
          </span>
          <span
            className="reader-way-gauge"
            role="progressbar"
            aria-label="等待进度"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(choice.progress * 100)}
          >
            <span style={{ width: `${choice.progress * 100}%` }} />
          </span>
        </div>
        <button
          type="button"
          className="reader-way-button"
          disabled={!choice.ready}
          onClick={() => onUnlock('wait_free')}
        >
          {choice.ready ? '免费解锁' : '等待中'}
        </button>
      </div>
    );
  }
  return (
    <div className="reader-way">
      <div className="reader-way-text">
        <strong>打包购买剩余{choice.chapters}话</strong>
        <span>
          {choice.price}阅币{choice.saves > 0 && ` · 省${choice.saves}阅币`}
        </span>
      </div>
      <button type="button" className="reader-way-button" onClick={() => onUnlock('bundle')}>
        打包购买
      </button>
    </div>
  );
}

/**
 * The buy prompt (kind 'buy') and the recharge prompt (kind 'recharge'): the chapter price, the VIP hint,
 * 自动购买下一话 and the balance; the buy prompt also offers, in the reader's spending order, a ticket,
 * wait-for-free (a gauge and the time left until it is ready) and the bundle, as the chapter's unlockOptions say
 * (spec section 2, Reader; docs/api.md, unlocks).
 */
export function PayOverlay({
  kind,
  show,
  info,
  options,
  waitMinutes,
  balance,
  onBuy,
  onUnlock,
  onRecharge,
}: {
  kind: 'buy' | 'recharge';
  show: boolean;
  info: ChapterInfo;
  options?: UnlockOptions;
  /** The book's wait, for the gauge. */
  waitMinutes?: number;
  balance: number;
  onBuy(): void;
  onUnlock(by: Exclude<UnlockBy, 'coins'>): void;
  onRecharge(): void;
}) {
  const { opacity, mounted } = useFade(show);
  const autoBuy = useAutoBuyStore((s) => s.bookIds.includes(info.bookId));
  const toggleAutoBuy = useAutoBuyStore((s) => s.toggle);
  const order = useReaderSettings((s) => s.spendOrder);
  const now = useNow(show && !!options?.waitFree);
  if (!mounted) return null;
  const choices = options ? unlockChoices(options, order, now, waitMinutes) : [];
  const coinsAt = choices.findIndex((c) => c.by === 'coins');
  const others = (from: number, to: number) =>
    choices
      .slice(from, to)
      .map((c) => c.by !== 'coins' && <OtherWay key={c.by} choice={c} now={now} onUnlock={onUnlock} />);
  return (
    <div
      className={`reader-pay reader-pay-${kind}`}
      style={{ opacity, pointerEvents: show ? 'auto' : 'none' }}
      role="dialog"
      aria-label={kind === 'buy' ? '购买本章节' : '阅币不足'}
    >
      <div className="reader-pay-lock" aria-hidden />
      <p className="reader-pay-chapter">{info.title}</p>
      <p className="reader-pay-note">
        {options?.earlyAccess
          ? '本话为抢先看章节，可用阅币或抢先券解锁'
          : choices.length > 1
            ? '本话为付费章节，解锁后即可阅读'
            : '本话为付费章节，购买后即可阅读'}
      </p>
      <div className="reader-pay-card">
        {others(0, Math.max(0, coinsAt))}
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
        {coinsAt >= 0 && others(coinsAt + 1, choices.length)}
      </div>
    </div>
  );
}
