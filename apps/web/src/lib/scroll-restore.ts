import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { stillHere } from './still-here.ts';

const storageKey = (key: string) => `ym-scroll:${key}`;

function readSaved(key: string): number | null {
  try {
    const raw = sessionStorage.getItem(storageKey(key));
    return raw === null ? null : Number(raw);
  } catch {
    return null;
  }
}

function save(key: string, y: number) {
  try {
    sessionStorage.setItem(storageKey(key), String(Math.round(y)));
  } catch {
    // Storage full or disabled: going back then starts at the top.
  }
}

/**
 * Keeps window.scrollY per history entry (location.key) in sessionStorage, written on scroll and on unmount,
 * and puts it back once `ready` (the cached pages have rendered), so going back lands where the reader was.
 */
export function useScrollRestore(ready: boolean) {
  const { key } = useLocation();
  // Read before any scroll event of this mount can overwrite it.
  const saved = useRef<number | null>(null);
  const savedFor = useRef<string | null>(null);
  const restored = useRef(false);
  const last = useRef(0);
  if (savedFor.current !== key) {
    // A new history entry (also when the same screen is reused for another list).
    savedFor.current = key;
    saved.current = readSaved(key);
    restored.current = false;
  }

  useLayoutEffect(() => {
    if (!ready || restored.current || savedFor.current !== key) return;
    restored.current = true;
    if (saved.current && saved.current > 0) {
      window.scrollTo(0, saved.current);
      last.current = saved.current;
    }
  }, [ready, key]);

  useEffect(() => {
    let frame = 0;
    const here = stillHere();
    const onScroll = () => {
      if (!restored.current || !here()) return;
      last.current = window.scrollY;
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        save(key, last.current);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
      if (restored.current) save(key, last.current);
    };
  }, [key]);
}
