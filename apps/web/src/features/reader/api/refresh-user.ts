import type { UserInfo } from '@yueman/contract';
import { call } from '../../../lib/api-client.ts';
import { useUserStore } from '../../../lib/user-store.ts';

/** GET /api/user/info: on chapter code 101 the reader refreshes the user (spec section 8). */
export async function refreshUser() {
  const res = await call<UserInfo>('dynamic', 'GET', '/api/user/info').catch(() => null);
  if (res?.result) useUserStore.getState().setUser(res.data);
}
