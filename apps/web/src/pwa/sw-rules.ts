// What the service worker (sw.ts) keeps and how it keys it, as plain functions the unit tests read
// (docs/decisions.md, "Offline re-reading"). Nothing here touches a cache: sw.ts wires these rules to Workbox.
import { routePaths } from '@yueman/contract';

/** Cache names: one per rule, so each has its own budget and an account switch can empty only its own. */
export const CACHES = {
  /** The last index.html the network answered that matches this worker's precache: the offline fallback. */
  shell: 'ym-shell',
  /** Page images, keyed without their grant. */
  pages: 'ym-pages',
  /** Covers (encrypted text), catalogue thumbnails and ads. */
  images: 'ym-images',
  /** Static calls (home, lists, book detail, common info): the same for every reader. */
  statics: 'ym-static',
  /** read_chapter answers that gave pages, per account. */
  chapters: 'ym-chapters',
} as const;

/**
 * Budgets. Page images: about 300 MB. A page of the demo library at width 1000 (what phones with a dense screen
 * load) is 155 KB on average (125 pages measured, the largest 324 KB), so 300 MB is about 2,000 pages; real comic
 * pages at that width are of the same order (100-300 KB as WebP). Workbox counts entries, not bytes: the count
 * is the estimate, and the browser's quota is the hard stop (purgeOnQuotaError empties the caches rather than
 * failing the reader's requests).
 */
export const BUDGETS = {
  pages: 2000,
  /** A cover's text is 10-30 KB: about 15 MB. */
  images: 600,
  statics: 200,
  /** A chapter answer is 1-5 KB. */
  chapters: 500,
} as const;

/** Seconds read_chapter and the static calls wait for the network before a kept answer is used. */
export const NETWORK_TIMEOUT_SECONDS = 4;

/** Where the shell is fetched from (any address of the app answers the same index.html). */
export const SHELL_URL = '/index.html';

/**
 * A build's name: a hash (FNV-1a) of its precache manifest, so each worker knows its own from the others' without
 * the build having to say. The same files give the same name.
 */
export function buildIdOf(
  entries: ReadonlyArray<string | { url: string; revision?: string | null }>,
): string {
  const lines = entries
    .map((e) => (typeof e === 'string' ? e : `${e.url} ${e.revision ?? ''}`))
    .sort()
    .join('\n');
  let hash = 0x811c9dc5;
  for (let i = 0; i < lines.length; i++) {
    hash ^= lines.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/**
 * The key a build's shell is kept under: one per build, so a worker only ever starts offline from a shell whose
 * files its own precache holds, even while another build's worker is installing beside it.
 */
export const shellKey = (build: string) => `${SHELL_URL}?build=${build}`;

/**
 * Addresses the worker never answers from a cache nor keeps: the console and its calls, payments and their
 * cashier, the server's own addresses, and the worker and manifest themselves. Every rule below checks this first.
 */
const NEVER = [
  /^\/api\/admin(\/|$)/,
  /^\/admin(\/|$)/,
  /^\/h5\/pay(\/|$)/,
  /^\/sandbox-pay(\/|$)/,
  /^\/api\/pay(\/|$)/,
  /^\/(healthz|readyz|metrics)$/,
  /^\/sw\.js$/,
  /^\/manifest\.webmanifest$/,
];
export const isNeverCached = (url: URL) => NEVER.some((re) => re.test(url.pathname));

/** An image address `{path}_{width}_0.img` (docs/api.md section 5); its path may start with a grant. */
const IMAGE = /^\/(.+)_(180|200|500|1000)_0\.img$/;
/** A grant in front of a page path: `g/<expiry>/<mac>/`. */
const GRANT = /^g\/\d{1,12}\/[A-Za-z0-9_-]{1,64}\//;

/** The image path of an address (grant removed), or null when it is not an image address. */
function imagePath(url: URL): string | null {
  if (isNeverCached(url)) return null;
  const m = IMAGE.exec(url.pathname);
  if (!m) return null;
  return (m[1] ?? '').replace(GRANT, '');
}

/** A chapter page (free, or priced with a grant). */
export const isPageImage = (url: URL) => imagePath(url)?.startsWith('pages/') ?? false;

/** Covers, catalogue thumbnails and ads: the same for every reader, no grant. */
export const isSmallImage = (url: URL) => /^(covers|chapters|ads)\//.test(imagePath(url) ?? '');

/**
 * The cache key of a page image: its address without the grant and without a query, so the same page read
 * under a later grant (a new 6-hour window) or offline under an expired one is the same entry.
 */
export function pageKey(href: string): string {
  const url = new URL(href);
  const path = imagePath(url);
  const m = IMAGE.exec(url.pathname);
  if (path === null || !m) return href;
  return `${url.origin}/${path}_${m[2]}_0.img`;
}

/** A route pattern (`/api/book/detail/:bookId`) as an exact regular expression over the path. */
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}$`);

/** The contract's static GET calls: the same answer for every reader, never looking at the session. */
const STATIC_CALLS = Object.values(
  routePaths as Record<string, { method: string | readonly string[]; url: string; base: string }>,
)
  .filter((r) => r.base === 'static' && (r.method === 'GET' || r.method.includes('GET')))
  .map((r) => patternOf(r.url));

export const isStaticCall = (url: URL, method: string) =>
  method === 'GET' && !isNeverCached(url) && STATIC_CALLS.some((re) => re.test(url.pathname));

export const isReadChapter = (url: URL, method: string) =>
  method === 'GET' && url.pathname === routePaths.readChapter.url;

/**
 * The cache key of a read_chapter answer: the book, the chapter and the account that asked (the `x-user-id` the
 * app sends), so one account's chapters are never answered to another on a shared phone. Null without an account:
 * nothing is kept or read then.
 */
export function chapterKey(href: string, userId: string | null): string | null {
  if (!userId || !/^\d+$/.test(userId)) return null;
  const url = new URL(href);
  const q = new URLSearchParams({
    bookId: url.searchParams.get('bookId') ?? '',
    number: url.searchParams.get('number') ?? '',
    user: userId,
  });
  return `${url.origin}${url.pathname}?${q}`;
}

/** The account a kept chapter answer belongs to (chapterKey's `user`). */
export const chapterKeyUser = (key: string) => new URL(key).searchParams.get('user');

/**
 * A read_chapter envelope the reader can show: code 200 with pages, and not held by a right that has ended by `now`
 * (a wait-for-free or ticket rental: data.unlock.endsAt, epoch ms). A 999 (buy first), 400 or 101 is never kept,
 * and a kept rental is refused once it ends, even offline: the offline copy agrees with the server.
 */
export function isReadableChapter(body: unknown, now = Date.now()): boolean {
  if (!body || typeof body !== 'object') return false;
  const { result, code, data } = body as {
    result?: unknown;
    code?: unknown;
    data?: { bookPics?: unknown; unlock?: { endsAt?: unknown } };
  };
  const endsAt = data?.unlock?.endsAt;
  return (
    result === true &&
    code === 200 &&
    Array.isArray(data?.bookPics) &&
    data.bookPics.length > 0 &&
    data.bookPics.every((p) => typeof p === 'string') &&
    !(typeof endsAt === 'number' && endsAt <= now)
  );
}

/**
 * A navigation the web app answers: any address of this site but the server's own (docs/api.md section 8), which
 * the browser loads as it would without a worker.
 */
export function isAppNavigation(url: URL, origin: string): boolean {
  if (url.origin !== origin || isNeverCached(url)) return false;
  if (/^\/(api|assets)\//.test(url.pathname)) return false;
  return !IMAGE.test(url.pathname);
}

/** The built files an index.html names (its entry script, styles and the landing screens' chunks). */
export const assetsNamedBy = (html: string) =>
  [...new Set([...html.matchAll(/["'(](\/assets\/[^"'()\s?#]+)/g)].map((m) => m[1] ?? ''))].filter(Boolean);

/**
 * Whether an index.html belongs to this worker's build: it names at least one built file, and every one it names
 * is in the precache. Only such a shell is kept for offline starts, so a shell of another deploy (newer than the
 * worker, or older) never meets a precache without its files.
 */
export function shellMatchesPrecache(html: string, precached: ReadonlySet<string>): boolean {
  const named = assetsNamedBy(html);
  return named.length > 0 && named.every((a) => precached.has(a));
}

/** The precache manifest's urls as absolute paths (`assets/x.js` → `/assets/x.js`). */
export const precachedPaths = (entries: ReadonlyArray<string | { url: string }>) =>
  new Set(entries.map((e) => `/${(typeof e === 'string' ? e : e.url).replace(/^\//, '')}`));

/** What the page and the worker say to each other (postMessage). */
export type WorkerMessage =
  /** Page → worker: the account on this device now; chapter answers of any other account are dropped. */
  | { type: 'ym-user'; userId: number }
  /** Worker → pages: whether its last request reached the network. */
  | { type: 'ym-network'; online: boolean };
