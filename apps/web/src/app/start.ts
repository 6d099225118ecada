import type { CommonInfo, UserInfo } from '@yueman/contract';
import { call, data, dynamicCallsWaitFor } from '../lib/api-client.ts';
import { useUserStore } from '../lib/user-store.ts';

const WELL_FORMED_ID = /^[A-Za-z0-9-]{8,64}$/;
const MARK_DAYS = 100;

/** tgId (branch) and visitorId from the address are stored (spec section 1). */
export function rememberAttribution(search: string) {
  const q = new URLSearchParams(search);
  const tgId = Number(q.get('tgId'));
  const visitorId = q.get('visitorId') ?? '';
  useUserStore.getState().setAttribution({
    branchId: q.has('tgId') && Number.isInteger(tgId) ? tgId : undefined,
    traceId: WELL_FORMED_ID.test(visitorId) ? visitorId : undefined,
  });
}

/** A visitor without an account gets one; a known one refreshes it (a lost session registers again). */
export async function ensureUser() {
  const store = useUserStore.getState();
  if (store.userInfo) {
    const info = await call<UserInfo>('dynamic', 'GET', '/api/user/info', { beforeSession: true }).catch(
      () => null,
    );
    if (info?.result) return store.setUser(info.data);
  }
  const registered = await data<UserInfo>('dynamic', 'POST', '/api/user/register', {
    query: { fromDomain: store.fromDomain },
    beforeSession: true,
  });
  useUserStore.getState().setUser(registered);
}

/** The first visit is reported once per branch and visitor; a 100-day cookie remembers the report. */
export async function reportFirstVisit() {
  const { branchId, traceId } = useUserStore.getState();
  const cookie = `ym_mark_${String(branchId).replace('-', 'm')}_${traceId.replace(/[^A-Za-z0-9]/g, '')}`;
  if (document.cookie.split('; ').some((c) => c.startsWith(`${cookie}=`))) return;
  const res = await call('dynamic', 'POST', '/api/user/user_from_mark', {
    query: { referUrl: document.referrer || location.href },
  });
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from many phone browsers.
  if (res.result) document.cookie = `${cookie}=1; max-age=${MARK_DAYS * 86400}; path=/; samesite=lax`;
}

export async function loadCommonInfo() {
  const info = await data<CommonInfo>(
    'static',
    'GET',
    `/api/common/info/v2/${useUserStore.getState().branchId}`,
  );
  useUserStore.getState().setCommonInfo(info);
}

/** Everything the app does once at start, in the background of the first screen. */
export async function startApp() {
  rememberAttribution(location.search);
  const user = ensureUser();
  dynamicCallsWaitFor(user);
  await user.catch((err) => console.error('register failed', err));
  await Promise.all([
    reportFirstVisit().catch((err) => console.error('first visit report failed', err)),
    loadCommonInfo().catch((err) => console.error('common info failed', err)),
  ]);
}
