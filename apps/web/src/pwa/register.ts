import { DEFAULT_BRANCH } from '@yueman/contract';
import { afterFirstScreen } from '../lib/chunk-load.ts';
import { useUserStore } from '../lib/user-store.ts';
import type { WorkerMessage } from './sw-rules.ts';

// The page's side of the service worker (sw.ts), loaded once the page has loaded (main.tsx): registering it at the
// site root once the first screen has had its time, telling it which account this device holds, and keeping the
// manifest's start address on the reader's branch (docs/decisions.md, "Offline re-reading").

const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** The manifest link names the branch, so an installed app starts on it (the server writes it in start_url). */
export function manifestHref(branchId: number): string {
  return branchId === DEFAULT_BRANCH ? '/manifest.webmanifest' : `/manifest.webmanifest?tgId=${branchId}`;
}

/**
 * Links the manifest (on the reader's branch, kept there as it changes) and the icons. Not in index.html: there the
 * browser fetched them, ~14 KB on new connections, beside the first screen's picture, which on a slow link made
 * the book page's largest paint ~130 ms later (bench/README.md). Browsers read these links whenever they appear.
 */
function linkManifestAndIcons() {
  const link = (rel: string, attributes: Record<string, string>) => {
    // index.html's empty icon (there so that the browser does not ask for /favicon.ico) is given the real one.
    const element =
      document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`) ??
      document.head.appendChild(Object.assign(document.createElement('link'), { rel }));
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    return element;
  };
  link('icon', { type: 'image/png', sizes: '192x192', href: '/icon-192.png' });
  link('apple-touch-icon', { href: '/apple-touch-icon.png' });
  const manifest = link('manifest', { href: manifestHref(useUserStore.getState().branchId) });
  const apply = (branchId: number) => {
    const href = manifestHref(branchId);
    if (manifest.getAttribute('href') !== href) manifest.setAttribute('href', href);
  };
  useUserStore.subscribe((s) => apply(s.branchId));
}

/** Tells the worker the account on this device whenever it changes, so it drops other accounts' chapters. */
function tellWorkerTheAccount(container: ServiceWorkerContainer) {
  let told = 0;
  const tell = (force = false) => {
    const userId = useUserStore.getState().userInfo?.userId ?? 0;
    const worker = container.controller;
    if (!worker || !userId || (userId === told && !force)) return;
    told = userId;
    worker.postMessage({ type: 'ym-user', userId } satisfies WorkerMessage);
  };
  useUserStore.subscribe(() => tell());
  container.addEventListener('controllerchange', () => tell(true));
  tell();
}

/**
 * Links the manifest and icons and registers /sw.js (scope '/') once the first screen has had its time after the
 * page's load (main.tsx loads this then). The worker's install downloads every chunk of the build (about a hundred
 * files) and the browser fetches the icons: at the load, on a slow phone that competed with the first screen's
 * pictures and calls (bench/README.md). Production builds only: `vite dev` serves no worker.
 */
export function registerServiceWorker() {
  if (typeof window === 'undefined') return;
  afterFirstScreen(linkAndRegister);
}

function linkAndRegister() {
  linkManifestAndIcons();
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // A build that withdraws the worker (vite.config.ts): its sw.js removes itself; registering it again would loop.
  if (import.meta.env.VITE_WITHDRAW_SERVICE_WORKER === 'true') return;
  const container = navigator.serviceWorker;
  tellWorkerTheAccount(container);

  container
    .register('/sw.js', { scope: '/' })
    .then((registration) => {
      // A page kept open for days (an installed app) asks for a new worker now and then, when shown.
      let checked = Date.now();
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState !== 'visible' || Date.now() - checked < UPDATE_CHECK_MS) return;
        checked = Date.now();
        registration.update().catch(() => undefined);
      });
    })
    // Not an error of the app: a private window, a browser that blocks workers. The app works without one.
    .catch((err: unknown) => console.warn('service worker not registered', err));
}
