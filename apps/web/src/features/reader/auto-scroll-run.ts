import { advance, atEnd, pxPerSecond } from './auto-scroll.ts';

/**
 * Scrolls the window every animation frame by the speed step's pixels per second (auto-scroll.ts), in device
 * pixels, until the chapter's end, then calls `onEnd`. `speed` is read each frame, so a change takes effect on the
 * next one. Answers the way to stop. Loaded the first time auto-scroll runs (hooks/use-auto-scroll.ts), not with
 * the reader's first screen.
 */
export function runAutoScroll(speed: () => number, onEnd: () => void): () => void {
  let frame = 0;
  let last = performance.now();
  let carry = 0;
  const quantum = 1 / Math.max(1, window.devicePixelRatio || 1);
  const tick = (now: number) => {
    const root = document.documentElement;
    if (atEnd(window.scrollY, window.innerHeight, root.scrollHeight)) {
      onEnd();
      return;
    }
    const f = advance(carry, pxPerSecond(speed()), now - last, quantum);
    last = now;
    carry = f.carry;
    if (f.step > 0) window.scrollBy(0, f.step);
    frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
  return () => cancelAnimationFrame(frame);
}
