import { whenIdle } from '../lib/chunk-load.ts';
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
 * Once per page, when the first screen has its code and its data (no call in flight, 5 s at most) and the browser
 * is idle, the code of the tab screens and the book detail loads, so tapping them shows them at once. The answer
 * cancels it while it waits (the screen went away; the next one asks again).
 */
export function preloadScreensWhenIdle(): () => void {
  if (preloaded) return () => {};
  let cancelIdle = () => {};
  const cancelSettle = whenCallsSettle(() => {
    cancelIdle = whenIdle(() => {
      preloaded = true;
      for (const screen of preloadedScreens) void screen.preload();
    });
  }, 5000);
  return () => {
    cancelSettle();
    cancelIdle();
  };
}
