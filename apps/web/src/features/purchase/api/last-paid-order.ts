import { data, routes } from '../../../lib/api-client.ts';

/** GET /api/pay/last_paid_order: the reader's latest paid order (its merchant order number), or null. */
export const fetchLastPaidOrder = () => data(routes.lastPaidOrder);
