import type { CheckinReward } from '@yueman/contract';
import { Toast } from 'antd-mobile';
import { useCheckin, useClaimCheckin } from './api/checkin.ts';

/** "5阅币", "阅读券×1", "5阅币+阅读券×1", or "—" for a day that pays nothing. */
export function rewardText(reward: CheckinReward) {
  const parts: string[] = [];
  if (reward.coins > 0) parts.push(`${reward.coins}阅币`);
  if (reward.tickets > 0)
    parts.push(`${reward.ticketKind === 'presale' ? '抢先券' : '阅读券'}×${reward.tickets}`);
  return parts.length > 0 ? parts.join('+') : '—';
}

/**
 * 每日签到 in the account centre: the seven days of the streak's cycle (checked-in days ticked, today's marked),
 * the streak, and the button that claims today's reward (已签到 once claimed, on this device or any other).
 */
export function CheckinCard() {
  const checkin = useCheckin();
  const claim = useClaimCheckin();
  const state = checkin.data;
  if (!state) return null;
  const today = state.days.find((d) => d.state === 'today');
  const onClaim = () =>
    claim.mutate(undefined, {
      onSuccess: (done) => {
        const text = rewardText(done.reward);
        Toast.show({
          content: done.claimed ? `签到成功${text === '—' ? '' : `，获得${text}`}` : '今天已经签到过了',
          duration: 1500,
        });
      },
      onError: () => Toast.show({ content: '签到失败，请稍后重试', duration: 1500 }),
    });

  return (
    <section className="user-checkin" aria-label="每日签到">
      <header className="checkin-head">
        <b>每日签到</b>
        <span data-testid="checkin-streak">
          {state.streak > 0 ? `已连续签到 ${state.streak} 天` : '连续签到领更多奖励'}
        </span>
      </header>
      <ol className="checkin-days">
        {state.days.map((d) => (
          <li
            key={d.day}
            className={`checkin-day is-${d.state}${d.state === 'today' && state.claimedToday ? ' is-done' : ''}`}
            aria-current={d.state === 'today' ? 'date' : undefined}
          >
            <span className="checkin-day-name">{d.state === 'today' ? '今天' : `第${d.day}天`}</span>
            <span className="checkin-day-mark" aria-hidden>
              {d.state === 'claimed' || (d.state === 'today' && state.claimedToday)
                ? '✓'
                : d.reward.tickets > 0
                  ? '券'
                  : '币'}
            </span>
            <span className="checkin-day-reward">{rewardText(d.reward)}</span>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="checkin-button"
        data-testid="checkin-button"
        disabled={state.claimedToday || claim.isPending}
        onClick={onClaim}
      >
        {state.claimedToday
          ? '已签到'
          : `签到领取${today && rewardText(today.reward) !== '—' ? ` ${rewardText(today.reward)}` : ''}`}
      </button>
    </section>
  );
}
