// The service worker (built by vite-plugin-pwa's injectManifest into dist/sw.js, scope '/'): the app shell and
// what a reader has read, for reading again offline. The rules and their reasons are in sw-rules.ts and
// docs/decisions.md, "Offline re-reading".

import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import {
  BUDGETS,
  buildIdOf,
  CACHES,
  chapterKey,
  chapterKeyUser,
  isAppNavigation,
  isPageImage,
  isReadableChapter,
  isReadChapter,
  isSmallImage,
  isStaticCall,
  NETWORK_TIMEOUT_SECONDS,
  pageKey,
  precachedPaths,
  SHELL_URL,
  shellKey,
  shellMatchesPrecache,
  type WorkerMessage,
} from './sw-rules.ts';

// The worker's global scope, as far as this file uses it (the web app's TypeScript program has the DOM's types,
// not the worker's).
interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}
interface WindowClient {
  postMessage(message: WorkerMessage): void;
}
declare const self: {
  __WB_MANIFEST: Array<PrecacheEntry | string>;
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { matchAll(options: { type: 'window' }): Promise<WindowClient[]> };
  addEventListener(type: 'install' | 'activate', listener: (event: WaitUntil) => void): void;
  addEventListener(type: 'message', listener: (event: WaitUntil & { data: unknown }) => void): void;
};

const manifest = self.__WB_MANIFEST;
const precached = precachedPaths(manifest);
const SHELL_KEY = shellKey(buildIdOf(manifest));

// An update takes over at once; old pages load the new build at their next navigation (pwa-status.tsx).
self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(manifest);

/** Tells the open pages whether requests reach the network (the offline notice), when that changes. */
let networkUp = true;
async function reportNetwork(online: boolean) {
  if (online === networkUp) return;
  networkUp = online;
  for (const client of await self.clients.matchAll({ type: 'window' }))
    client.postMessage({ type: 'ym-network', online });
}
const networkReport: WorkboxPlugin = {
  fetchDidFail: async () => reportNetwork(false),
  fetchDidSucceed: async ({ response }) => {
    void reportNetwork(true);
    return response;
  },
};

const onlyOk = new CacheableResponsePlugin({ statuses: [200] });

// --- The shell: network first for every navigation of the app, the kept shell only when the network fails -----

/** Keeps a shell, under this build's key, only when it is this build's: every file it names is precached. */
const shellOfThisBuild: WorkboxPlugin = {
  cacheKeyWillBeUsed: async () => SHELL_KEY,
  cacheWillUpdate: async ({ response }) => {
    if (response.status !== 200 || !response.headers.get('content-type')?.includes('text/html')) return null;
    return shellMatchesPrecache(await response.clone().text(), precached) ? response : null;
  },
};

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && isAppNavigation(url, self.location.origin),
  // No network timeout: online, every load gets the server's index.html (its runtime config, and after a deploy
  // the new build), never a kept one.
  new NetworkFirst({ cacheName: CACHES.shell, plugins: [shellOfThisBuild, networkReport] }),
);

/** At install, this build's shell from the network, so the first offline start after an update has one. */
async function keepShellOfThisBuild(): Promise<void> {
  try {
    const res = await fetch(SHELL_URL, { cache: 'reload', credentials: 'same-origin' });
    if (res.ok && shellMatchesPrecache(await res.clone().text(), precached))
      await (await caches.open(CACHES.shell)).put(SHELL_KEY, res);
  } catch {
    // Offline at install: the first online navigation keeps it.
  }
}

/** Once this build's worker is the one in charge, the other builds' shells go. */
async function dropOtherShells(): Promise<void> {
  const cache = await caches.open(CACHES.shell);
  for (const request of await cache.keys()) {
    const { pathname, search } = new URL(request.url);
    if (`${pathname}${search}` !== SHELL_KEY) await cache.delete(request);
  }
}
self.addEventListener('install', (event) => event.waitUntil(keepShellOfThisBuild()));
self.addEventListener('activate', (event) => event.waitUntil(dropOtherShells()));

// --- Images ---------------------------------------------------------------------------------------------------

/**
 * Pictures on another origin (IMAGE_BASE on a CDN) come to an <img> as opaque answers, whose status nobody can
 * read, so none would be kept: the worker asks for them with CORS (the image host must already answer CORS for the
 * covers, which the app fetches), and if that fails, as the page asked, to show without keeping.
 */
const readableAcrossOrigins: WorkboxPlugin = {
  requestWillFetch: async ({ request }) =>
    new URL(request.url).origin === self.location.origin
      ? request
      : new Request(request.url, { mode: 'cors', credentials: 'omit' }),
  handlerDidError: async ({ request }) =>
    new URL(request.url).origin === self.location.origin ? undefined : fetch(request).catch(() => undefined),
};

// Page images: cache first, keyed without the grant, only what the server answered 200 (a refused grant is 403).

registerRoute(
  ({ url, request }) => request.method === 'GET' && isPageImage(url),
  new CacheFirst({
    cacheName: CACHES.pages,
    plugins: [
      { cacheKeyWillBeUsed: async ({ request }) => pageKey(request.url) },
      readableAcrossOrigins,
      onlyOk,
      new ExpirationPlugin({ maxEntries: BUDGETS.pages, purgeOnQuotaError: true }),
      networkReport,
    ],
  }),
);

// Covers (encrypted text), catalogue thumbnails, ads: shown at once, refreshed behind.
registerRoute(
  ({ url, request }) => request.method === 'GET' && isSmallImage(url),
  new StaleWhileRevalidate({
    cacheName: CACHES.images,
    plugins: [
      readableAcrossOrigins,
      onlyOk,
      new ExpirationPlugin({ maxEntries: BUDGETS.images, purgeOnQuotaError: true }),
      networkReport,
    ],
  }),
);

// --- Calls ----------------------------------------------------------------------------------------------------

// Static calls (home, lists, book detail): the network's answer while it answers within the timeout, so a
// reader online sees what the server says now; the kept one offline.
registerRoute(
  ({ url, request }) => isStaticCall(url, request.method),
  new NetworkFirst({
    cacheName: CACHES.statics,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    plugins: [
      onlyOk,
      new ExpirationPlugin({ maxEntries: BUDGETS.statics, purgeOnQuotaError: true }),
      networkReport,
    ],
  }),
);

/**
 * read_chapter (personal): kept per account, and only while the server's latest answer for it gave pages. Any
 * other answer (999 after VIP ended, 101, 403) drops the kept one, so offline shows only what the server last
 * let this account read. A kept rental (its answer's unlock.endsAt) is neither served nor kept after it ends.
 */
const readableChapters: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cacheName, request, cachedResponse }) => {
    if (!cachedResponse) return null;
    const body: unknown = await cachedResponse
      .clone()
      .json()
      .catch(() => null);
    if (isReadableChapter(body)) return cachedResponse;
    await (await caches.open(cacheName)).delete(request);
    return null;
  },
  cacheKeyWillBeUsed: async ({ request }) =>
    chapterKey(request.url, request.headers.get('x-user-id')) ?? `${request.url}#no-account`,
  cacheWillUpdate: async ({ request, response }) => {
    if (response.status !== 200 || !chapterKey(request.url, request.headers.get('x-user-id'))) return null;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    return isReadableChapter(body) ? response : null;
  },
  fetchDidSucceed: async ({ request, response }) => {
    const key = chapterKey(request.url, request.headers.get('x-user-id'));
    if (!key) return response;
    const body: unknown =
      response.status === 200
        ? await response
            .clone()
            .json()
            .catch(() => null)
        : null;
    if (!isReadableChapter(body)) await (await caches.open(CACHES.chapters)).delete(key);
    return response;
  },
};
registerRoute(
  ({ url, request }) => isReadChapter(url, request.method),
  new NetworkFirst({
    cacheName: CACHES.chapters,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    plugins: [
      readableChapters,
      new ExpirationPlugin({ maxEntries: BUDGETS.chapters, purgeOnQuotaError: true }),
      networkReport,
    ],
  }),
);

/** Another account on this device: the chapter answers kept for any other account go. */
async function keepChaptersOf(userId: number) {
  const cache = await caches.open(CACHES.chapters);
  for (const request of await cache.keys()) {
    if (chapterKeyUser(request.url) !== String(userId)) await cache.delete(request);
  }
}

self.addEventListener('message', (event) => {
  const message = event.data as WorkerMessage | null;
  if (message?.type === 'ym-user' && Number.isSafeInteger(message.userId) && message.userId > 0)
    event.waitUntil(keepChaptersOf(message.userId));
});
