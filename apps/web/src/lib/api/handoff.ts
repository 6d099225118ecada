import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, data, routes } from '../api-client.ts';

/** Ten minutes is the link's life: a fresh one a minute before, while the prompt stays open. */
const REFRESH_MS = 9 * 60 * 1000;

/** POST /api/user/handoff?to= (session): a one-time link opening this account, at `to`, in another browser. */
export const handoffLinkOptions = (to: string) =>
  queryOptions({
    queryKey: ['account', 'handoff', to],
    queryFn: () => data(routes.handoff, { query: { to } }),
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
    retry: 1,
  });

export const useHandoffLink = (to: string, enabled: boolean) =>
  useQuery({ ...handoffLinkOptions(to), enabled });

/** POST /api/user/handoff/redeem: spends the token; this browser is signed in to its account (the envelope back). */
export const redeemHandoff = (token: string) =>
  call(routes.redeemHandoff, { form: { token }, beforeSession: true });
