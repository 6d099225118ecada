import { useMutation } from '@tanstack/react-query';
import type { PayApplyApp, PayApplyQuery } from '@yueman/contract';
import { ApiError, call } from '../../../lib/api-client.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

export const PAY_APPLY_PATH = '/h5/pay/apply';

function queryString(query: PayApplyQuery) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  return q.toString();
}

/** GET {dynamic}/h5/pay/apply?... : web channels navigate the browser here; the server answers 302 to the cashier. */
export const payApplyUrl = (query: PayApplyQuery) =>
  `${runtimeConfig.dynamicApiBase}${PAY_APPLY_PATH}?${queryString(query)}`;

/**
 * The same call fetched, for app channels (appType shell or ios_desk): the order the native bridge needs. Both
 * the bare answer and one inside the API envelope are accepted.
 */
export async function fetchPayApply(query: PayApplyQuery): Promise<PayApplyApp> {
  const body = (await call<PayApplyApp>('dynamic', 'GET', PAY_APPLY_PATH, {
    query: query as Record<string, string | number | undefined>,
  })) as unknown as Record<string, unknown>;
  if ('result' in body) {
    if (!body.result) throw new ApiError(Number(body.code), String(body.msg || '下单失败，请稍后重试'));
    return body.data as PayApplyApp;
  }
  if (typeof body.payUrl !== 'string') throw new ApiError(500, '下单失败，请稍后重试');
  return body as unknown as PayApplyApp;
}

export const usePayApply = () => useMutation({ mutationFn: fetchPayApply });
