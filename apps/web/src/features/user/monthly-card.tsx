import { Toast } from 'antd-mobile';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { purchasePath } from '../../lib/paths.ts';
import { useClaimCard, useMonthlyCard } from './api/card.ts';
import { rewardText } from './checkin-card.tsx';

/**
 * 月卡 in the account centre: while a card runs, the days left (today included) and the button that claims today's
 * reward (今日已领取 once claimed, on this device or any other); when none runs, a line to buy one.
 */
export function MonthlyCardPanel() {
  const card = useMonthlyCard();
  const claim = useClaimCard();
  const state = card.data;
  if (!state) return null;
  const reward = rewardText(state.reward);
  const onClaim = () =>
    claim.mutate(undefined, {
      onSuccess: (done) =>
        Toast.show({
          content: done.claimed ? `领取成功${reward === '—' ? '' : `，获得${reward}`}` : '今天已经领取过了',
          duration: 1500,
        }),
      onError: (err) =>
        Toast.show({
          content: err instanceof ApiError ? err.message : '领取失败，请稍后重试',
          duration: 1500,
        }),
    });

  if (!state.active)
    return (
      <Link to={`${purchasePath()}?pack=card`} className="user-monthly-card is-off" data-testid="card-buy">
        <span>
          <b>月卡</b>
          <small>开通后30天每天可领{reward === '—' ? '奖励' : ` ${reward}`}</small>
        </span>
        <span className="monthly-card-go">去开通</span>
      </Link>
    );

  return (
    <section className="user-monthly-card" aria-label="月卡">
      <span>
        <b>
          月卡<em data-testid="card-days">剩余{state.daysLeft}天</em>
        </b>
        <small>每日可领 {reward}</small>
      </span>
      <button
        type="button"
        className="monthly-card-claim"
        data-testid="card-claim"
        disabled={state.claimedToday || claim.isPending}
        onClick={onClaim}
      >
        {state.claimedToday ? '今日已领取' : '领取'}
      </button>
    </section>
  );
}
