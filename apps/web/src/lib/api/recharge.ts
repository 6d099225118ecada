import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppType } from '@yueman/contract';
import { data, routes } from '../api-client.ts';

/** GET /api/user/recharge?appType= (dynamic): balance, packs and the pay channels offered to this client. */
export const getRecharge = (appType: AppType) => data(routes.recharge, { query: { appType } });

export const rechargeQueryOptions = (appType: AppType) =>
  queryOptions({
    queryKey: ['purchase', 'recharge', appType],
    queryFn: () => getRecharge(appType),
    // The balance and the channels on offer change; the recharge centre always asks again.
    staleTime: 0,
  });

export const useRecharge = (appType: AppType, enabled = true) =>
  useQuery({ ...rechargeQueryOptions(appType), enabled });
