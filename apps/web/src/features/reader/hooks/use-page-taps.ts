import { useCallback, useEffect, useRef } from 'react';

/** Two taps within this time and distance are a double tap; a single tap waits this long to be sure. */
export const DOUBLE_TAP_MS = 280;
const DOUBLE_TAP_PX = 32;

/**
 * Taps on the pages: a double tap (two taps close in time and place) calls `onDoubleTap` with where it
 * landed; a single tap calls `onTap` once no second tap has come. `reset` forgets a first tap (one the reader
 * used for something else, such as pausing auto-scroll).
 */
export function usePageTaps(onTap: () => void, onDoubleTap: (target: Element, x: number, y: number) => void) {
  const first = useRef<{ at: number; x: number; y: number } | null>(null);
  const timer = useRef(0);
  const handlers = useRef({ onTap, onDoubleTap });
  handlers.current = { onTap, onDoubleTap };

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const reset = useCallback(() => {
    window.clearTimeout(timer.current);
    first.current = null;
  }, []);

  const onClick = useCallback((e: React.MouseEvent) => {
    const at = performance.now();
    const { clientX: x, clientY: y } = e;
    const prev = first.current;
    window.clearTimeout(timer.current);
    if (prev && at - prev.at <= DOUBLE_TAP_MS && Math.hypot(x - prev.x, y - prev.y) <= DOUBLE_TAP_PX) {
      first.current = null;
      handlers.current.onDoubleTap(e.target as Element, x, y);
      return;
    }
    first.current = { at, x, y };
    timer.current = window.setTimeout(() => {
      first.current = null;
      handlers.current.onTap();
    }, DOUBLE_TAP_MS);
  }, []);

  return { onClick, reset };
}
