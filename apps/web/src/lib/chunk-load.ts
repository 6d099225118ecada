// A screen's code arrives as a chunk of its own (app/routes.tsx). When it does not arrive, the screen says so with
// 重试 instead of a blank page or the generic error (docs/decisions.md, "Never a blank screen").

/** A screen's code did not load: the network dropped, or a deploy removed the old chunk. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * The entry script an index.html names: it changes with every build, so a new one means a new deploy. The built page
 * starts it from the inline script at the end of its body (`import("/assets/index-….js")`, vite.config.ts); a page
 * built otherwise names it in a module script tag.
 */
export function entryScriptOf(html: string): string | null {
  const started = /\bimport\(["'](\/assets\/[^"']+\.js)["']\)/.exec(html);
  if (started) return started[1] ?? null;
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    if (!/\btype=["']?module\b/.test(tag)) continue;
    const src = /\bsrc=["']?([^"'\s>]+)/.exec(tag);
    if (src) return src[1] ?? null;
  }
  return null;
}

/**
 * Why the page should load again after a screen's code failed, or null when only a retry can help (offline):
 * a new deploy (its index names another entry script: the old chunks may be gone), or a retry that failed while
 * the site answers (browsers that keep a failed import for the page's life never fetch it again).
 */
export function reloadReason(opts: {
  running: string | null;
  latest: string | null;
  afterRetry: boolean;
  path: string;
}): string | null {
  if (opts.latest && opts.running && opts.latest !== opts.running) return `deploy ${opts.latest}`;
  if (opts.afterRetry) return `stuck ${opts.path}`;
  return null;
}

const RELOADED_KEY = 'ym-reloaded-for';

/** Reloads the page for `reason` unless this tab already did for the same reason: never a loop of reloads. */
export function reloadOnce(reason: string, storage: Storage, reload: () => void): boolean {
  try {
    if (storage.getItem(RELOADED_KEY) === reason) return false;
    storage.setItem(RELOADED_KEY, reason);
  } catch {
    return false; // no session storage (a private mode): a reload could loop
  }
  reload();
  return true;
}

/**
 * After a screen's code failed to load, asks the site for its index (never from a cache) and reloads once when
 * that helps (`reloadReason`). When the site does not answer either, the reader is offline: the message and
 * its 重试 stay.
 */
export async function recoverFromChunkFailure(afterRetry: boolean) {
  let latest: string | null;
  try {
    const res = await fetch('/', { cache: 'no-store', credentials: 'same-origin' });
    if (!res.ok) return;
    latest = entryScriptOf(await res.text());
  } catch {
    return;
  }
  const running = entryScriptOf([...document.scripts].map((script) => script.outerHTML).join('\n'));
  const reason = reloadReason({ running, latest, afterRetry, path: location.pathname });
  if (reason) reloadOnce(reason, sessionStorage, () => location.reload());
}

/** Stylesheets that failed to load, to ask for again on 重试. */
const failedStyles = new WeakSet<Element>();
if (typeof document !== 'undefined') {
  document.addEventListener(
    'error',
    (e) => {
      if (e.target instanceof HTMLLinkElement && e.target.rel === 'stylesheet') failedStyles.add(e.target);
    },
    true,
  );
}

/**
 * A screen's stylesheet that failed with its code is asked for again: Vite adds a screen's CSS link once per
 * page, so a retried import would otherwise bring the code without its styles.
 */
export function retryFailedStyles() {
  for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
    if (failedStyles.has(link)) link.replaceWith(link.cloneNode());
  }
}

/**
 * Runs `task` when the browser is idle (requestIdleCallback, at most `timeout` ms later; a short timer where it
 * is missing, as in Safari). The answer cancels it.
 */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => task(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 300);
  return () => clearTimeout(id);
}

/**
 * How long work that can wait leaves a page's first screen alone: the screens' code preloading (app/preload.ts),
 * the service worker's registration (pwa/register.ts), the reader's later parts. On a slow phone such work shared
 * the link with the first screen's pictures and calls, and the CPU with its first render (bench/README.md).
 */
export const FIRST_SCREEN_MS = 6000;

/** Runs `task` FIRST_SCREEN_MS from now, at the next idle moment (5 s at most). The answer cancels it. */
export function afterFirstScreen(task: () => void): () => void {
  let cancelIdle = () => {};
  const timer = setTimeout(() => {
    cancelIdle = whenIdle(task, 5000);
  }, FIRST_SCREEN_MS);
  return () => {
    clearTimeout(timer);
    cancelIdle();
  };
}
