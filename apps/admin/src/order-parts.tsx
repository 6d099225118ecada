import type { OrderRow, OrderState } from '@yueman/contract/admin';
import { Tag } from 'antd';
import { ORDER_STATE_COLORS, ORDER_STATE_NAMES } from './names.ts';

// What the order list and an order's story both show.

/** What an order buys: coins and their bonus, or VIP days. */
export const contentOf = (o: Pick<OrderRow, 'purpose' | 'itemCount' | 'presentCount'>) =>
  o.purpose === 'vip'
    ? `VIP ${o.itemCount} 天`
    : `${o.itemCount} 阅币${o.presentCount > 0 ? ` + 赠 ${o.presentCount}` : ''}`;

export const StateTag = ({ state }: { state: OrderState }) => (
  <Tag color={ORDER_STATE_COLORS[state]}>{ORDER_STATE_NAMES[state]}</Tag>
);
