import type { NoticeKind } from '@yueman/contract';
import { lazy, Suspense } from 'react';
import { isWechatBrowser } from '../lib/user-agent.ts';

// 更新提醒 shows only inside WeChat's browser (wechat-notice-panel.tsx): its code (the status call, WeChat's JS-SDK
// and open tag) is loaded there and nowhere else, so the book page and the reader carry none of it in their first
// load elsewhere (about 1.3 KB gzip, bench/README.md).
const Panel = lazy(() => import('./wechat-notice-panel.tsx'));

export function WechatNotice({ kind }: { kind: NoticeKind }) {
  if (!isWechatBrowser()) return null;
  return (
    <Suspense fallback={null}>
      <Panel kind={kind} />
    </Suspense>
  );
}
