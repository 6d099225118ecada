import type { FoundAccount } from '@yueman/contract';
import { getUserInfo } from '../../lib/api/user-info.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { fetchLogin } from './api/login.ts';

/**
 * Makes the found account the one this device uses. The find_account answer already moved the session to
 * it, so the stored user (whose id the headers carry) is now wrong and every call would get 403: the stored
 * user is dropped first, the session's user is read, and if the session did not move after all, the found
 * account and its new password log in.
 */
export async function adoptFoundAccount(found: FoundAccount) {
  const store = useUserStore.getState();
  useUserStore.setState({ userInfo: null, password: found.password });
  const info = await getUserInfo();
  if (info.result && info.data.account === found.account) {
    store.setUser(info.data);
    return info.data;
  }
  const login = await fetchLogin(found);
  if (!login.result) throw new ApiError(login.code, login.msg);
  store.setUser(login.data);
  return login.data;
}
