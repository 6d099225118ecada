import type { ChapterInfo } from '@yueman/contract';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { type ImageWidth, imageUrl } from '../../../lib/images.ts';
import { fetchImageAhead } from '../fetch-image-ahead.ts';
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
          // Only a page on or near the screen turns its spinner (reader.css): the rest stay still, off the
          // animation list and the frame's work.
          (entry.target as HTMLElement).toggleAttribute('data-near', entry.isIntersecting);
          if (!entry.isIntersecting) continue;
          const at = Number((entry.target as HTMLElement).dataset.page);
          for (let k = at + 1; k <= at + PREFETCH_AHEAD && k < pages.length; k++) {
            for (const slice of pages[k] ?? []) fetchImageAhead(imageUrl(slice.path, width));
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
        <ChapterPage
          key={slices[0]?.path ?? i}
          slices={slices}
          index={i}
          split={n}
          width={width}
          zoomed={zoomed === i}
          alt={(k) => pageAlt(name, info.number, i + 1, n > 1 ? k + 1 : 0, n)}
        />
      ))}
    </div>
  );
});

/**
 * One page: its slices at their recorded size, and over them, until every slice is here, the page's number and a
 * spinner (a page can take seconds on a busy link); a slice that fails turns that into 第N页加载失败 / 点击重试, which
 * asks for the page again. The cover passes taps and hit tests through while it waits (pointer-events: none).
 */
function ChapterPage({
  slices,
  index,
  split,
  width,
  zoomed,
  alt,
}: {
  slices: Slice[];
  index: number;
  /** The chapter's slices per page (picSplitCount): each slice is 1/split of the page's width. */
  split: number;
  width: ImageWidth;
  zoomed: boolean;
  alt: (slice: number) => string;
}) {
  const [loaded, setLoaded] = useState(0);
  const [failed, setFailed] = useState(false);
  // A retry draws the slices anew (new elements ask for their images again; a failed image is not kept).
  const [attempt, setAttempt] = useState(0);
  const retry = (e: React.MouseEvent) => {
    // The tap is the retry's only: it neither shows the menus nor counts towards a double-tap zoom.
    e.stopPropagation();
    setLoaded(0);
    setFailed(false);
    setAttempt((a) => a + 1);
  };
  const eager = index < EAGER_PAGES;
  const number = index + 1;
  return (
    <div className={`reader-page-row ${zoomed ? 'is-zoomed' : ''}`} data-page={index}>
      <div className={`reader-page${failed ? ' is-failed' : ''}`}>
        {slices.map((s, k) => (
          <img
            key={`${s.path}#${attempt}`}
            className={`reader-page-img${s.width && s.height ? '' : ' is-unsized'}`}
            src={imageUrl(s.path, width)}
            width={s.width || undefined}
            height={s.height || undefined}
            style={{ width: `${100 / split}%` }}
            alt={alt(k)}
            loading={eager ? 'eager' : 'lazy'}
            fetchPriority={eager ? 'high' : 'auto'}
            decoding="async"
            onLoad={() => setLoaded((c) => c + 1)}
            onError={() => setFailed(true)}
          />
        ))}
        {failed ? (
          <button type="button" className="reader-page-wait is-failed" onClick={retry}>
            <span className="reader-page-wait-box">
              <span className="reader-page-no" aria-hidden="true">
                {number}
              </span>
              <span>第{number}页加载失败</span>
              <span className="reader-page-retry">点击重试</span>
            </span>
          </button>
        ) : loaded < slices.length ? (
          <span className="reader-page-wait" aria-hidden="true" data-testid="page-wait">
            <span className="reader-page-wait-box">
              <span className="reader-page-no">{number}</span>
              <span className="reader-spinner" />
            </span>
          </span>
        ) : null}
      </div>
    </div>
  );
}
