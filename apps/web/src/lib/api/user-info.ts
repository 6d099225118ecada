import { queryOptions, useQuery } from '@tanstack/react-query';
import { Code } from '@yueman/contract';
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

/**
 * A visitor without an account gets one; a known one refreshes it. Only a server that says the session is gone
 * (401) makes a new visitor: a dropped connection, a request the browser aborted (the reader left the page) or a
 * server error keeps the stored account, because registering ends the request's session, and with it the reader's
 * coins on this device. Start-up does this (app/start.ts); so does 重试 on the account centre when it failed.
 */
export async function ensureUser() {
  const store = useUserStore.getState();
  if (store.userInfo) {
    const info = await getUserInfo({ beforeSession: true }).catch(() => null);
    if (info?.result) return store.setUser(info.data);
    if (info?.code !== Code.unauthorized) return;
  }
  const registered = await data(routes.register, {
    query: { fromDomain: store.fromDomain },
    beforeSession: true,
  });
  useUserStore.getState().setUser(registered);
}
