import { FIRST_SCREEN_MS, whenIdle } from '../lib/chunk-load.ts';
import { queryClient } from './providers.tsx';
import { preloadedScreens } from './routes.tsx';

/** Runs `task` once no call is in flight (the screen has its data), or after `maxWait` ms; the answer cancels it. */
function whenCallsSettle(task: () => void, maxWait: number): () => void {
  let waiting = true;
  const cancel = () => {
    waiting = false;
    clearTimeout(timer);
    unsubscribe();
  };
  const finish = () => {
    if (!waiting) return;
    cancel();
    task();
  };
  const timer = setTimeout(finish, maxWait);
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (queryClient.isFetching() === 0) finish();
  });
  if (queryClient.isFetching() === 0) finish();
  return cancel;
}

let preloaded = false;

/**
 * How long the first screen is left alone after it has its data. On a slow phone the screens' code costs a few
 * hundred milliseconds of main thread (modules, their styles, a style pass over the page); done at once it made home's
 * first seconds janky (Lighthouse's total blocking time 300–800 ms against 100–200 ms without it, bench/README.md).
 * One screen's modules are still one task of 50–70 ms at 4x CPU (the shelf's tabs and their animation library):
 * 2.5 s after the data, it fell inside the page's load on a slow machine, where every long task counts as blocking
 * time, so the wait is longer; the reader's first tap ends it (below).
 */
const SETTLE_MS = FIRST_SCREEN_MS;

/** The screens' code one screen per idle moment, each after the one before has loaded: short tasks, never a long one. */
function preloadOneByOne(screens: readonly { preload(): Promise<void> }[]) {
  const [next, ...rest] = screens;
  if (!next) return;
  whenIdle(() => void next.preload().then(() => preloadOneByOne(rest)));
}

/**
 * Once per page, when the first screen has its code and its data (no call in flight, 5 s at most), has been left
 * alone for SETTLE_MS (or the reader touched it) and the browser is idle, the code of the tab screens and the book detail loads, so tapping them
 * shows them at once. The answer cancels it while it waits (the screen went away; the next one asks again).
 */
export function preloadScreensWhenIdle(): () => void {
  if (preloaded) return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    if (preloaded) return;
    preloaded = true;
    clearTimeout(timer);
    removeEventListener('pointerdown', start, true);
    preloadOneByOne(preloadedScreens);
  };
  const cancelSettle = whenCallsSettle(() => {
    timer = setTimeout(start, SETTLE_MS);
  }, 5000);
  // A reader who touches the page is past its loading: the code comes at the next idle moment, without waiting.
  addEventListener('pointerdown', start, { capture: true, passive: true });
  return () => {
    cancelSettle();
    clearTimeout(timer);
    removeEventListener('pointerdown', start, true);
  };
}
