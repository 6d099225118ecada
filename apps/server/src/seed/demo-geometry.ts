/**
 * Paths and sizes of the demo library's images. The seed stores these paths and sizes in the database;
 * the image host draws the picture for a path on its first request. Both sides read this one file,
 * so a page's recorded size is always the size it is drawn at.
 */
export const PAGE_WIDTH = 800;

/** Deterministic 32-bit hash, so sizes never depend on insertion order or ids. */
export function hash32(...parts: number[]): number {
  let h = 2166136261;
  for (const p of parts) {
    h ^= p & 0xffffffff;
    h = Math.imul(h, 16777619);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

/** Pages are webtoon strips, 800 wide and 1200 to 3000 tall (multiples of 100). */
export function demoPageHeight(book: number, chapter: number, page: number): number {
  return 1200 + (hash32(book, chapter, page) % 19) * 100;
}

export const demoPaths = {
  verticalCover: (book: number) => `covers/demo/${book}-v.png`,
  horizontalCover: (book: number) => `covers/demo/${book}-h.png`,
  chapterThumb: (book: number, chapter: number) => `chapters/demo/${book}/${chapter}.png`,
  /** With picSplitCount n > 1 each page is n slices, numbered 1..n left to right. */
  page: (book: number, chapter: number, page: number, slice?: number) =>
    slice === undefined
      ? `pages/demo/${book}/${chapter}/${page}.png`
      : `pages/demo/${book}/${chapter}/${page}-${slice}.png`,
  ad: (n: number) => `ads/demo/${n}.png`,
};

export const DEMO_SIZES = {
  verticalCover: { width: 600, height: 800 },
  horizontalCover: { width: 800, height: 450 },
  chapterThumb: { width: 320, height: 180 },
  ad: { width: 750, height: 300 },
} as const;
