import type { ChapterInfo } from '@yueman/contract';
import { memo, useEffect, useMemo, useRef } from 'react';
import { type ImageWidth, imageUrl } from '../../../lib/images.ts';
import { pageAlt, pageImageWidth } from '../reader-helpers.ts';

interface Slice {
  path: string;
  width: number;
  height: number;
}

/** How many pages ahead of the one on screen are fetched before the reader gets there. */
const PREFETCH_AHEAD = 3;
const EAGER_PAGES = 2;

/** bookPics grouped by picSplitCount: each group is one page, its slices side by side (docs/api.md section 5). */
function pagesOf(info: ChapterInfo): Slice[][] {
  const n = Math.max(1, info.picSplitCount || 1);
  const pages: Slice[][] = [];
  info.bookPics.forEach((path, i) => {
    const size = info.bookPicSizes[i] ?? { width: 0, height: 0 };
    if (i % n === 0) pages.push([]);
    pages[pages.length - 1]?.push({ path, ...size });
  });
  return pages;
}

const prefetched = new Set<string>();
function prefetch(url: string) {
  if (prefetched.has(url)) return;
  prefetched.add(url);
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
}

/**
 * The chapter's pages, top to bottom. Every image carries its width and height so the page keeps its place
 * before it loads; the first pages load at once with high priority, the rest lazily, and the next few pages
 * are fetched ahead of the scroll.
 */
export const ChapterPages = memo(function ChapterPages({
  info,
  bookName,
  zoomed = null,
}: {
  info: ChapterInfo;
  /** The book's name for the pages' alternative text (the chapter info's, else what the reader knows). */
  bookName: string;
  /** The page shown at double-tap zoom (use-page-zoom.ts), if any. */
  zoomed?: number | null;
}) {
  const pages = useMemo(() => pagesOf(info), [info]);
  const n = Math.max(1, info.picSplitCount || 1);
  const width: ImageWidth = pageImageWidth();
  const strip = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const root = strip.current;
    if (!root || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          const at = Number((entry.target as HTMLElement).dataset.page);
          for (let k = at + 1; k <= at + PREFETCH_AHEAD && k < pages.length; k++) {
            for (const slice of pages[k] ?? []) prefetch(imageUrl(slice.path, width));
          }
        }
      },
      { rootMargin: '0px 0px 50% 0px' },
    );
    for (const el of root.querySelectorAll('[data-page]')) io.observe(el);
    return () => io.disconnect();
  }, [pages, width]);

  const name = info.bookName || bookName;
  return (
    <div ref={strip} className="reader-pages">
      {pages.map((slices, i) => (
        <div
          key={slices[0]?.path ?? i}
          className={`reader-page-row ${zoomed === i ? 'is-zoomed' : ''}`}
          data-page={i}
        >
          <div className="reader-page">
            {slices.map((s, k) => (
              <img
                key={s.path}
                className="reader-page-img"
                src={imageUrl(s.path, width)}
                width={s.width || undefined}
                height={s.height || undefined}
                style={{ width: `${100 / n}%` }}
                alt={pageAlt(name, info.number, i + 1, n > 1 ? k + 1 : 0, n)}
                loading={i < EAGER_PAGES ? 'eager' : 'lazy'}
                fetchPriority={i < EAGER_PAGES ? 'high' : 'auto'}
                decoding="async"
              />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
});
