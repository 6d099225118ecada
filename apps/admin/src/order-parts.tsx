import type { OrderRow, OrderState } from '@yueman/contract/admin';
import { Tag } from 'antd';
import { ORDER_STATE_COLORS, ORDER_STATE_NAMES } from './names.ts';

// What the order list and an order's story both show.

/** What an order buys: coins and their bonus, VIP days, or monthly card days. */
export const contentOf = (o: Pick<OrderRow, 'purpose' | 'itemCount' | 'presentCount'>) =>
  o.purpose === 'vip'
    ? `VIP ${o.itemCount} 天`
    : o.purpose === 'card'
      ? `月卡 ${o.itemCount} 天`
      : `${o.itemCount} 阅币${o.presentCount > 0 ? ` + 赠 ${o.presentCount}` : ''}`;

/**
 * An order's state; a paid order with refunds that succeeded shows 已退款 (all it paid) or 部分退款, derived from its
 * refunds (refunded and paid in cents, when known).
 */
export function StateTag({
  state,
  refunded = 0,
  paid = 0,
}: {
  state: OrderState;
  refunded?: number;
  paid?: number;
}) {
  if (state === 'paid' && refunded > 0)
    return refunded >= paid ? <Tag color="red">已退款</Tag> : <Tag color="volcano">部分退款</Tag>;
  return <Tag color={ORDER_STATE_COLORS[state]}>{ORDER_STATE_NAMES[state]}</Tag>;
}
