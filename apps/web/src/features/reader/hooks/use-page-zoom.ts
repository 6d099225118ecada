import { useCallback, useLayoutEffect, useRef, useState } from 'react';

/** A double-tapped page is shown at this many times its width. */
export const PAGE_ZOOM = 2;

interface Anchor {
  row: HTMLElement;
  /** Where the tap landed on the page, as fractions of its width and height. */
  fx: number;
  fy: number;
  /** Where the tap landed on the screen. */
  x: number;
  y: number;
}

const pageOf = (row: HTMLElement) => row.firstElementChild as HTMLElement | null;

/**
 * Double-tap zoom of one page. The zoomed page is laid out at PAGE_ZOOM times its width (its row scrolls
 * sideways, the window vertically) rather than transformed, so the browser pans it with its own scrolling and
 * the pages after it move down with it; back at 1x the layout is exactly as before. The point tapped stays
 * under the finger both ways.
 */
export function usePageZoom() {
  const [zoomed, setZoomed] = useState<number | null>(null);
  const anchor = useRef<Anchor | null>(null);

  const toggleAt = useCallback((target: Element, x: number, y: number) => {
    const row = target.closest<HTMLElement>('[data-page]');
    const page = row && pageOf(row);
    if (!row || !page) return;
    const r = page.getBoundingClientRect();
    if (!r.width || !r.height) return;
    anchor.current = { row, fx: (x - r.left) / r.width, fy: (y - r.top) / r.height, x, y };
    setZoomed(row.classList.contains('is-zoomed') ? null : Number(row.dataset.page));
  }, []);

  // After the new layout, before it is painted: put the tapped point back under the finger.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each zoom change has been laid out
  useLayoutEffect(() => {
    const a = anchor.current;
    anchor.current = null;
    const page = a && pageOf(a.row);
    if (!a || !page) return;
    const r = page.getBoundingClientRect();
    const rowLeft = a.row.getBoundingClientRect().left;
    a.row.scrollLeft = Math.max(0, r.left - rowLeft + a.row.scrollLeft + a.fx * r.width - (a.x - rowLeft));
    window.scrollBy(0, r.top + a.fy * r.height - a.y);
  }, [zoomed]);

  return { zoomed, toggleAt };
}
