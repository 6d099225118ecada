import { useCallback, useEffect, useRef, useState } from 'react';

/** The scrolling itself: loaded when idle with the reader's other later parts (reader-page.tsx), or when it starts. */
export const loadAutoScrollRun = () => import('../auto-scroll-run.ts');

/** A chapter opened with auto-scroll on waits this long, with its menus shown, before it starts to move. */
const AUTO_START_DELAY_MS = 1200;

const reducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Auto-scroll (设置 → 自动滚动): while running, every animation frame scrolls the window by the speed step's
 * pixels per second (auto-scroll-run.ts), in device pixels; it stops at the chapter's end. A speed change takes
 * effect on the next frame. With the setting on, each chapter whose pages show starts by itself after a moment,
 * unless the phone asks for reduced motion (then the floating control offers 继续).
 */
export function useAutoScroll(opts: {
  /** The 自动滚动 setting. */
  enabled: boolean;
  /** The speed step, 1 to 5. */
  speed: number;
  /** The chapter's pages are on screen (auto-scroll has something to move). */
  ready: boolean;
  /** Which chapter: a new one stops the scrolling and may start it again. */
  chapter: number;
  /** Called when it starts or resumes (the reader hides its menus). */
  onStart(): void;
  /** Called when it reaches the chapter's end (the reader shows its menus). */
  onEnd(): void;
}) {
  const { enabled, speed, ready, chapter } = opts;
  const [running, setRunning] = useState(false);
  const speedRef = useRef(speed);
  speedRef.current = speed;
  const callbacks = useRef(opts);
  callbacks.current = opts;

  const start = useCallback(() => {
    setRunning(true);
    callbacks.current.onStart();
  }, []);
  const pause = useCallback(() => setRunning(false), []);

  // Off in the sheet: stop.
  useEffect(() => {
    if (!enabled) setRunning(false);
  }, [enabled]);

  // A new chapter (or its pages not shown): stop; with the setting on, start again once its pages show.
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each chapter
  useEffect(() => {
    setRunning(false);
    if (!ready || !enabledRef.current || reducedMotion()) return;
    const timer = window.setTimeout(start, AUTO_START_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [ready, chapter, start]);

  useEffect(() => {
    if (!running || !ready) return;
    let live = true;
    let stop: (() => void) | undefined;
    loadAutoScrollRun().then(
      (m) => {
        if (!live) return;
        stop = m.runAutoScroll(
          () => speedRef.current,
          () => {
            setRunning(false);
            callbacks.current.onEnd();
          },
        );
      },
      // Not loaded (the network dropped): it stops, and the control offers 继续.
      () => live && setRunning(false),
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [running, ready]);

  return { running: running && ready, start, pause };
}
