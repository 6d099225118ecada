import { isTraceId } from '@yueman/contract';
import { ensureUser } from '../lib/api/user-info.ts';
import { call, data, dynamicCallsWaitFor, routes } from '../lib/api-client.ts';
import { pullFollows } from '../lib/follow-sync.ts';
import { openedFromConsole } from '../lib/opened-from.ts';
import { pullPositions } from '../lib/progress-sync.ts';
import { useUserStore } from '../lib/user-store.ts';

const MARK_DAYS = 100;

/** tgId (branch) and visitorId from the address are stored (spec section 1). */
export function rememberAttribution(search: string) {
  // The console's mark too, read from the first address before any navigation drops it.
  openedFromConsole(search);
  const q = new URLSearchParams(search);
  const tgId = Number(q.get('tgId'));
  const visitorId = q.get('visitorId') ?? '';
  useUserStore.getState().setAttribution({
    branchId: q.has('tgId') && Number.isInteger(tgId) ? tgId : undefined,
    traceId: isTraceId(visitorId) ? visitorId : undefined,
  });
}

/** The first visit is reported once per branch and visitor; a 100-day cookie remembers the report. */
export async function reportFirstVisit() {
  const { branchId, traceId } = useUserStore.getState();
  const cookie = `ym_mark_${String(branchId).replace('-', 'm')}_${traceId.replace(/[^A-Za-z0-9]/g, '')}`;
  if (document.cookie.split('; ').some((c) => c.startsWith(`${cookie}=`))) return;
  const res = await call(routes.userFromMark, {
    query: { referUrl: document.referrer || location.href },
  });
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from many phone browsers.
  if (res.result) document.cookie = `${cookie}=1; max-age=${MARK_DAYS * 86400}; path=/; samesite=lax`;
}

export async function loadCommonInfo() {
  const info = await data(routes.commonInfo, { params: { branchId: useUserStore.getState().branchId } });
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
    // Where this account stopped reading on other devices (a login, a hand-off): resumes there.
    pullPositions().catch((err) => console.error('reading positions failed', err)),
    // The account's follows (追更) and their newest chapters: the shelf tab's dot.
    pullFollows().catch((err) => console.error('follows failed', err)),
  ]);
}
