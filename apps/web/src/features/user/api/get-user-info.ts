import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';
import { useUserStore } from '../../../lib/user-store.ts';

/** GET /api/user/info for the session's user; the answer replaces the stored user (balance, VIP, mobile). */
export async function fetchUserInfo() {
  const info = await data<UserInfo>('dynamic', 'GET', '/api/user/info');
  useUserStore.getState().setUser(info);
  return info;
}

export const userInfoQuery = () =>
  queryOptions({ queryKey: ['user', 'info'], queryFn: fetchUserInfo, staleTime: 0 });

export const useUserInfo = () => useQuery(userInfoQuery());
