import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, data, routes } from '../api-client.ts';
import { useUserStore } from '../user-store.ts';

/**
 * GET /api/user/info, the envelope as it comes: start-up (before the session is known) and adopting a found
 * account read its result themselves.
 */
export const getUserInfo = (opts: { beforeSession?: boolean } = {}) => call(routes.userInfo, opts);

/**
 * The session's user; the answer replaces the stored user (balance, VIP, mobile). Shared by the account centre,
 * the account pages, the reader (code 101, the balance on the buy overlay) and the after-payment dialog, which
 * all need the same fresh copy.
 */
export async function fetchUserInfo() {
  const info = await data(routes.userInfo);
  useUserStore.getState().setUser(info);
  return info;
}

/** fetchUserInfo for callers that carry on either way: null when it failed. */
export const refreshUser = () => fetchUserInfo().catch(() => null);

export const userInfoQuery = () =>
  queryOptions({ queryKey: ['user', 'info'], queryFn: fetchUserInfo, staleTime: 0 });

export const useUserInfo = () => useQuery(userInfoQuery());
