import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { positionOf } from '../../../lib/progress-store.ts';
import { savePosition } from '../../../lib/progress-sync.ts';
import { stillHere } from '../../../lib/still-here.ts';

/** How often a scrolling reader's position is written (this device at once, the account every few seconds). */
const SAVE_EVERY_MS = 1_000;

export interface PagePosition {
  /** 1-based. */
  pageNumber: number;
  /** How far down that page the top of the screen is, 0 to 1. */
  pageOffset: number;
}

/** The page rows of the chapter on screen (chapter-pages.tsx marks each with data-page, 0-based). */
const rows = () => Array.from(document.querySelectorAll<HTMLElement>('.reader-pages [data-page]'));

/** The page at the top of the screen, and how far down it the screen's top is; null with no chapter on screen. */
function pageAtTop(list: readonly HTMLElement[] = rows()): PagePosition | null {
  if (list.length === 0) return null;
  // Binary search: the last row whose top is at or above the screen's top.
  let lo = 0;
  let hi = list.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = list[mid];
    if (row && row.getBoundingClientRect().top <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const rect = list[found]?.getBoundingClientRect();
  const offset = rect && rect.height > 0 ? Math.min(1, Math.max(0, -rect.top / rect.height)) : 0;
  return { pageNumber: found + 1, pageOffset: Math.round(offset * 1000) / 1000 };
}

/**
 * Exact resume: opening a chapter where the reader stopped (this device's position or the account's) scrolls to
 * that page and the place within it; reading keeps the position, on the device and on the account. `ready` is true
 * once the chapter's pages are laid out (every image carries its size, so the place holds before they load).
 * `startPage` (1-based, from the address) opens at that page instead. Answers where the reader is now (for 举报此页).
 */
export function useReadingPosition(bookId: number, number: number, ready: boolean, startPage?: number) {
  const restored = useRef<string | null>(null);
  const lastSave = useRef(0);

  const save = useCallback(
    (at: PagePosition) => savePosition({ bookId, chapterNumber: number, ...at, readAt: Date.now() }),
    [bookId, number],
  );

  // After the reader's own scroll to the chapter's top (a parent's layout effect runs after its children's, and
  // this one is declared after the reader's): the kept place, once per chapter opened.
  useLayoutEffect(() => {
    const key = `${bookId}:${number}`;
    if (!ready || restored.current === key) return;
    restored.current = key;
    // An address naming a page (a complaint's page link, ?page=N) opens at that page's top.
    const asked = startPage ? rows()[startPage - 1] : undefined;
    if (asked) {
      window.scrollTo(0, Math.max(0, Math.round(asked.getBoundingClientRect().top + window.scrollY)));
      return;
    }
    const kept = positionOf(bookId);
    const row = kept?.chapterNumber === number ? rows()[kept.pageNumber - 1] : undefined;
    if (kept && row && (kept.pageNumber > 1 || kept.pageOffset > 0)) {
      const top = row.getBoundingClientRect().top + window.scrollY + kept.pageOffset * row.offsetHeight;
      window.scrollTo(0, Math.max(0, Math.round(top)));
      return;
    }
    // A chapter opened at its top is where the reader is now, even before a scroll.
    save({ pageNumber: 1, pageOffset: 0 });
  }, [bookId, number, ready, save, startPage]);

  useEffect(() => {
    if (!ready) return;
    let frame = 0;
    let owed: PagePosition | null = null;
    let trailing: ReturnType<typeof setTimeout> | undefined;
    const here = stillHere();
    const flush = () => {
      clearTimeout(trailing);
      trailing = undefined;
      if (!owed) return;
      lastSave.current = Date.now();
      save(owed);
      owed = null;
    };
    // Where the reader is, read once a frame; written at most every SAVE_EVERY_MS, and the last one always.
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        // Leaving the reader (another screen, another chapter), the next one is drawn before this listener is
        // removed and scrolls the window (still-here.ts): that is not where the reader stopped in this chapter.
        const at = here() ? pageAtTop() : null;
        if (!at) return;
        owed = at;
        const wait = SAVE_EVERY_MS - (Date.now() - lastSave.current);
        if (wait <= 0) flush();
        else trailing ??= setTimeout(flush, wait);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
      // Leaving the chapter: where the reader last was is kept.
      flush();
    };
  }, [ready, save]);

  return useCallback(() => pageAtTop() ?? { pageNumber: 1, pageOffset: 0 }, []);
}
