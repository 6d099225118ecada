import { Badge, TabBar } from 'antd-mobile';
import { type KeyboardEvent, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { Icon } from '../components/icon.tsx';
import { AfterPaymentDialog } from '../features/purchase/after-payment/after-payment-dialog.tsx';
import {
  categoryPath,
  handoffPath,
  homePath,
  indexPath,
  openInBrowserPath,
  pcPath,
  shelfPath,
  userPath,
  WECHAT_PAY_PATHS,
} from '../lib/paths.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { hasNewChapters, useShelfStore } from '../lib/shelf-store.ts';
import { goesToPcPage, isChatAppBrowser, isWechatBrowser } from '../lib/user-agent.ts';
import { PwaStatus } from '../pwa/pwa-status.tsx';
import { ScreenPage } from './lazy-screen.tsx';
import { preloadScreensWhenIdle } from './preload.ts';
import { Providers } from './providers.tsx';
import { type ScreenRoute, screens } from './routes.tsx';
import { startApp } from './start.ts';

const tabs = [
  { key: homePath(), title: '首页', icon: 'M3 11 12 3l9 8v10h-6v-6H9v6H3z' },
  { key: categoryPath(), title: '分类', icon: 'M3 3h8v8H3zm10 0h8v8h-8zM3 13h8v8H3zm10 0h8v8h-8z' },
  { key: shelfPath(), title: '书架', icon: 'M4 3h5v18H4zm6 0h5v18h-5zm6.5 1 4.6 1.2-4 15.9-4.6-1.2z' },
  {
    key: userPath(),
    title: '我的',
    icon: 'M16.5 8a4.5 4.5 0 1 1-9 0 4.5 4.5 0 0 1 9 0zM3 21c0-5 4-8 9-8s9 3 9 8z',
  },
];

/**
 * The tab bar, operable with a keyboard: antd-mobile draws its items as plain divs, so each gets a tab stop, a
 * name and its selection through the props it passes on, the role tab here (it passes no role), and Enter or Space
 * opens it (docs/decisions.md, Accessibility).
 */
function Tabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  // A followed book has a chapter out since the shelf was last looked at: a red dot on the shelf tab.
  const shelfDot = useShelfStore(hasNewChapters);
  useLayoutEffect(() => {
    for (const item of ref.current?.querySelectorAll('.adm-tab-bar-item') ?? [])
      item.setAttribute('role', 'tab');
  });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const item = (event.target as HTMLElement).closest('.adm-tab-bar-item');
    if (!item || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    (item as HTMLElement).click();
  };
  return (
    <div ref={ref} role="tablist" aria-label="主导航" onKeyDown={onKeyDown}>
      <TabBar className="tab-bar" activeKey={pathname} onChange={(key) => navigate(key)} safeArea>
        {tabs.map((t) => (
          <TabBar.Item
            key={t.key}
            title={t.title}
            tabIndex={0}
            aria-label={t.key === shelfPath() && shelfDot ? `${t.title}，有更新` : t.title}
            aria-selected={t.key === pathname}
            badge={t.key === shelfPath() && shelfDot ? Badge.dot : undefined}
            icon={<Icon d={t.icon} className={`tab-icon tab-icon-${t.key.slice(1)}`} />}
          />
        ))}
      </TabBar>
    </div>
  );
}

/** Mounted beside a screen's page, so it starts only once the screen's code is here. */
function PreloadWhenIdle() {
  useEffect(() => preloadScreensWhenIdle(), []);
  return null;
}

/**
 * Deeper screens slide in; going back slides out. `prefers-reduced-motion` turns it off in CSS. Until the
 * screen's code is here it shows its skeleton; code that does not arrive shows its frame with 重试. The screen the
 * page landed on does not slide when index.html already painted it (the first location's key is 'default'): it
 * would jump away from where the reader already sees it.
 */
function Screen({ route }: { route: ScreenRoute }) {
  const { screen, skeleton: Skeleton, tabBar } = route;
  const { key } = useLocation();
  const [transition] = useState(() =>
    key === 'default' && window.__YM_FIRST_PAINT__ ? 'none' : route.transition,
  );
  return (
    <div className={`screen transition-${transition} ${tabBar ? 'with-tab-bar' : ''}`}>
      {/* A boundary per route: navigations are transitions, in which a boundary already showing a screen would
          keep the old screen until the new one's code came; a new one shows the skeleton at once. */}
      <ErrorBoundary key={route.path} frame={Skeleton} onLoadFailed={screen.forgetFailure}>
        <Suspense fallback={<Skeleton />}>
          <ScreenPage screen={screen} />
          {route.position > 0 && <PreloadWhenIdle />}
        </Suspense>
      </ErrorBoundary>
      {tabBar && <Tabs />}
    </div>
  );
}

/** PC browsers go to the PC page (but a console's link), chat-app browsers to the prompt page (spec section 1). */
function ClientGate() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // A hand-off link signs this browser in first: its screen starts the app once the account is settled, so no
    // visitor account is made for nothing.
    // With WeChat notices on, WeChat's readers stay on books and chapters (where 更新提醒 is) and take a notice's
    // hand-off link there.
    const noticesInWechat = isWechatBrowser() && !!runtimeConfig.wechatNotices;
    if (pathname === handoffPath() && (!isChatAppBrowser() || noticesInWechat)) return;
    if (isChatAppBrowser()) {
      const payingInWechat = isWechatBrowser() && WECHAT_PAY_PATHS.has(pathname);
      const readingInWechat = noticesInWechat && pathname.startsWith('/book/');
      if (pathname !== openInBrowserPath() && !payingInWechat && !readingInWechat)
        navigate(openInBrowserPath(pathname + search), { replace: true });
    } else if (goesToPcPage(search)) {
      if (pathname !== pcPath()) navigate(pcPath(), { replace: true });
    }
    void startApp();
  }, [navigate, pathname, search]);
  return null;
}

export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <ClientGate />
        <Routes>
          <Route
            path="/"
            element={
              <Navigate
                to={`${indexPath()}${typeof location === 'undefined' ? '' : location.search}`}
                replace
              />
            }
          />
          <Route path="/home.html" element={<Navigate to={homePath()} replace />} />
          {screens.map((route) => (
            <Route key={route.path} path={route.path} element={<Screen route={route} />} />
          ))}
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
        {/* After a payment, back on /home or /user (spec section 4): mounted here, so no screen carries it. */}
        <AfterPaymentDialog />
        <PwaStatus />
      </BrowserRouter>
    </Providers>
  );
}
