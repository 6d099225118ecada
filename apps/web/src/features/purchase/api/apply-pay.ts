import { useMutation } from '@tanstack/react-query';
import { Code, type DataOf, type PayApplyQuery } from '@yueman/contract';
import { ApiError, call, type Envelope, routes, routeUrl } from '../../../lib/api-client.ts';

type Order = DataOf<typeof routes.payApply>;

/** GET {dynamic}/h5/pay/apply?... : web channels navigate the browser here; the server answers 302 to the cashier. */
export const payApplyUrl = (query: PayApplyQuery) => routeUrl(routes.payApply, { query });

/**
 * The same call fetched, for app channels (appType shell or ios_desk): the order the native bridge needs. Both
 * the bare answer and one inside the API envelope are accepted.
 */
export async function fetchPayApply(query: PayApplyQuery): Promise<Order> {
  const answer = (await call(routes.payApply, { query })) as Envelope<Order> | Order;
  if ('result' in answer) {
    if (!answer.result) throw new ApiError(answer.code, answer.msg || '下单失败，请稍后重试');
    return answer.data;
  }
  if (typeof answer.payUrl !== 'string') throw new ApiError(Code.serverError, '下单失败，请稍后重试');
  return answer;
}

export const usePayApply = () => useMutation({ mutationFn: fetchPayApply });
