/**
 * Draws the demo library's pictures on demand, from the path alone (see demo-geometry.ts), so the seed
 * stores no image files. Pictures are SVG rendered by librsvg inside sharp, seeded by book, chapter and
 * page, so a path always draws the same picture.
 */
import { demoPageHeight, PAGE_WIDTH } from '../demo-geometry.ts';
import { adSvg } from './ad.ts';
import { chapterThumbSvg, horizontalCoverSvg, verticalCoverSvg } from './cover.ts';
import { pageSvg } from './page.ts';
import { neutralPalette, paletteFor, Rng } from './palette.ts';
import { renderPng } from './svg.ts';

export interface DemoLookup {
  bookTitle(book: number): string | undefined;
  picSplitCount(book: number): number;
}

/** Shared placeholders of the scale seed, k in 1..SHARED_COUNT. */
export const SHARED_COUNT = 8;
const SHARED_PAGE_HEIGHT = 1600;
const MAX_ID = 1_000_000_000;

const COVER = /^covers\/demo\/(\d{1,10})-([vh])\.png$/;
const THUMB = /^chapters\/demo\/(\d{1,10})\/(\d{1,10})\.png$/;
const PAGE = /^pages\/demo\/(\d{1,10})\/(\d{1,10})\/(\d{1,10})(?:-(\d{1,3}))?\.png$/;
const AD = /^ads\/demo\/(\d{1,10})\.png$/;
const SHARED = /^(covers|chapters|pages)\/shared\/(\d{1,2})(?:-([vh]))?\.png$/;

/** Ids in paths are positive decimals without leading zeros, so one picture has one path. */
function id(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[1-9]\d*$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= MAX_ID ? n : undefined;
}

/** The SVG markup for a demo path, or undefined when the path is not one. */
export function demoSvg(path: string, lookup?: DemoLookup): string | undefined {
  let m = SHARED.exec(path);
  if (m) return sharedSvg(m[1], id(m[2]), m[3]);
  m = AD.exec(path);
  if (m) {
    const n = id(m[1]);
    return n === undefined ? undefined : adSvg(n);
  }
  m = COVER.exec(path) ?? THUMB.exec(path) ?? PAGE.exec(path);
  const book = id(m?.[1]);
  if (!m || book === undefined || !lookup) return undefined;
  const title = lookup.bookTitle(book);
  if (title === undefined) return undefined;
  const palette = paletteFor(book);
  if (path.startsWith('covers/')) {
    const rng = new Rng(book, 1);
    return m[2] === 'v' ? verticalCoverSvg(rng, palette, title) : horizontalCoverSvg(rng, palette, title);
  }
  const chapter = id(m[2]);
  if (chapter === undefined) return undefined;
  if (path.startsWith('chapters/')) return chapterThumbSvg(new Rng(book, chapter, 2), palette, chapter);
  const page = id(m[3]);
  if (page === undefined) return undefined;
  const height = demoPageHeight(book, chapter, page);
  const spec = {
    rng: new Rng(book, chapter, page, 3),
    palette,
    width: PAGE_WIDTH,
    height,
    footer: `${title} · 第${chapter}话 · 第${page}页`,
    titleCard: page === 1 ? { title, chapter } : undefined,
  };
  if (m[4] === undefined) return pageSvg(spec);
  const n = lookup.picSplitCount(book);
  const slice = id(m[4]);
  if (!Number.isInteger(n) || n < 2 || slice === undefined || slice > n) return undefined;
  const x0 = Math.round(((slice - 1) * PAGE_WIDTH) / n);
  const x1 = Math.round((slice * PAGE_WIDTH) / n);
  return pageSvg(spec, { x: x0, width: x1 - x0 });
}

function sharedSvg(
  kind: string | undefined,
  k: number | undefined,
  orient: string | undefined,
): string | undefined {
  if (k === undefined || k > SHARED_COUNT) return undefined;
  const palette = neutralPalette();
  if (kind === 'covers' && orient !== undefined) {
    const rng = new Rng(k, 91);
    return orient === 'v'
      ? verticalCoverSvg(rng, palette, undefined)
      : horizontalCoverSvg(rng, palette, undefined);
  }
  if (orient !== undefined) return undefined;
  if (kind === 'chapters') return chapterThumbSvg(new Rng(k, 92), palette, undefined);
  const spec = {
    rng: new Rng(k, 93),
    palette,
    width: PAGE_WIDTH,
    height: SHARED_PAGE_HEIGHT,
    footer: `— ${k} —`,
  };
  return pageSvg(spec);
}

/** A PNG for a demo path, or null when the path is not a demo picture or its book is unknown. */
export async function drawDemoImage(path: string, lookup: DemoLookup): Promise<Buffer | null> {
  const svg = demoSvg(path, lookup);
  return svg === undefined ? null : renderPng(svg);
}
