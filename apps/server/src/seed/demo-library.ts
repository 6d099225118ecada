import { DEMO_SIZES, demoPageHeight, demoPaths, PAGE_WIDTH } from './demo-geometry.ts';
import {
  type DemoAd,
  type DemoBranchSettings,
  type DemoPayChannel,
  type DemoPayConfig,
  demoShop,
} from './demo-shop.ts';
import {
  CATEGORY_WORDS,
  CHAPTER_SUBTITLES,
  CLOSINGS,
  GIVEN_NAMES,
  PEN_FIRST,
  PEN_SECOND,
  STUDIOS,
  SURNAMES,
} from './demo-words.ts';

export type { DemoAd, DemoBranchSettings, DemoPayChannel, DemoPayConfig };

export interface DemoImage {
  path: string;
  width: number;
  height: number;
}
export interface DemoCategory {
  id: number;
  name: string;
  sort: number;
}
export interface DemoChapter {
  id: number;
  number: number;
  title: string;
  cover: string;
  price: number;
  pics: string[];
  createdAt: Date;
}
export interface DemoBook {
  /** Also the book index in image paths (covers/demo/{id}-v.png). */
  id: number;
  title: string;
  author: string;
  cover: string;
  horiCover: string;
  abstractContent: string;
  categoryId: number;
  publishStatus: 'finish' | 'serialize';
  vipFree: boolean;
  recommend: number;
  readCount: number;
  picSplitCount: number;
  createdAt: Date;
  updatedAt: Date;
  chapters: DemoChapter[];
}
export type ShowcaseType = 'e_recommend' | 'new' | 'hot' | 'kkbg' | 'new_on';
export interface DemoShowcaseEntry {
  type: ShowcaseType;
  bookId: number;
  sort: number;
}
export interface DemoLibrary {
  categories: DemoCategory[];
  books: DemoBook[];
  showcases: DemoShowcaseEntry[];
  hotWords: string[];
  /** Every image the library refers to, with its size: covers, chapter thumbs, pages or slices, ads. */
  images: DemoImage[];
  ads: DemoAd[];
  payConfigs: DemoPayConfig[];
  payChannels: DemoPayChannel[];
  branchSettings: DemoBranchSettings[];
}

/** Dates are relative to this instant, never to the clock, so every seed of one version is identical. */
export const DEMO_EPOCH = new Date('2026-11-01T00:00:00+08:00');
export const DEMO_BOOK_COUNT = 64;
const DAY_MS = 86_400_000;

/** mulberry32: a tiny, fast, well-mixed 32-bit PRNG; enough for demo data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)] as (typeof items)[number],
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j] as (typeof out)[number], out[i] as (typeof out)[number]];
      }
      return out;
    },
  };
}

function fill(template: string, p: string, q: string): string {
  return template.replaceAll('{p}', p).replaceAll('{q}', q);
}

/** Log-uniform integer, so a few books are huge hits and most are modest. */
function logUniform(rng: Rng, min: number, max: number): number {
  return Math.round(Math.exp(Math.log(min) + rng.next() * (Math.log(max) - Math.log(min))));
}

function penNames(rng: Rng, count: number): string[] {
  const names = new Set<string>(STUDIOS.slice(0, 2));
  while (names.size < count) {
    const [a, b] = [rng.pick(PEN_FIRST), rng.pick(PEN_SECOND)];
    if (!b.startsWith(a)) names.add(a + b);
  }
  return rng.shuffle([...names]);
}

function pagePics(
  book: number,
  chapter: number,
  pages: number,
  split: number,
  images: DemoImage[],
): string[] {
  const pics: string[] = [];
  for (let page = 1; page <= pages; page++) {
    const height = demoPageHeight(book, chapter, page);
    for (let slice = 1; slice <= split; slice++) {
      const path =
        split === 1 ? demoPaths.page(book, chapter, page) : demoPaths.page(book, chapter, page, slice);
      pics.push(path);
      images.push({ path, width: PAGE_WIDTH / split, height });
    }
  }
  return pics;
}

function chaptersOf(rng: Rng, book: DemoBook, count: number, nextId: () => number, images: DemoImage[]) {
  const free = rng.int(3, 5);
  const base = rng.pick([20, 25, 30, 35, 40, 45, 50]);
  const span = book.updatedAt.getTime() - book.createdAt.getTime();
  let previous = '';
  for (let number = 1; number <= count; number++) {
    let subtitle: string = rng.pick(CHAPTER_SUBTITLES);
    while (subtitle === previous) subtitle = rng.pick(CHAPTER_SUBTITLES);
    previous = subtitle;
    if (number === count && book.publishStatus === 'finish') subtitle = '大结局';
    const cover = demoPaths.chapterThumb(book.id, number);
    images.push({ path: cover, ...DEMO_SIZES.chapterThumb });
    book.chapters.push({
      id: nextId(),
      number,
      title: `第${number}话 ${subtitle}`,
      cover,
      // Later arcs cost a little more, never above 60.
      price: number <= free ? 0 : Math.min(60, base + (number > 20 ? 10 : 0)),
      pics: pagePics(book.id, number, rng.int(3, 6), book.picSplitCount, images),
      createdAt: new Date(
        book.createdAt.getTime() + Math.round((span * (number - 1)) / Math.max(1, count - 1)),
      ),
    });
  }
}

function showcases(rng: Rng, books: DemoBook[]): DemoShowcaseEntry[] {
  const by = (key: (b: DemoBook) => number) => [...books].sort((a, b) => key(b) - key(a) || a.id - b.id);
  const lists: Record<ShowcaseType, DemoBook[]> = {
    e_recommend: rng.shuffle(by((b) => b.recommend).slice(0, 32)).slice(0, 16),
    new: by((b) => b.updatedAt.getTime()).slice(0, 20),
    hot: by((b) => b.readCount).slice(0, 30),
    kkbg: rng.shuffle(by((b) => b.readCount).slice(0, 24)).slice(0, 10),
    new_on: by((b) => b.createdAt.getTime()).slice(0, 12),
  };
  return Object.entries(lists).flatMap(([type, list]) =>
    list.map((b, i) => ({ type: type as ShowcaseType, bookId: b.id, sort: i + 1 })),
  );
}

function hotWords(rng: Rng, books: DemoBook[]): string[] {
  const top = [...books].sort((a, b) => b.readCount - a.readCount);
  const words = new Set<string>();
  for (const b of top.slice(0, 5)) words.add(b.title);
  for (const b of top.slice(5, 8)) words.add(b.title.slice(0, 2));
  for (const b of rng.shuffle(top.slice(0, 20))) {
    if (words.size >= 11) break;
    words.add(b.author);
  }
  return [...words];
}

export function demoLibrary(seed = 20261122): DemoLibrary {
  const rng = createRng(seed);
  const categories = CATEGORY_WORDS.map((c, i) => ({ id: i + 1, name: c.name, sort: i + 1 }));
  const ids = Array.from({ length: DEMO_BOOK_COUNT }, (_, i) => i + 1);
  const finished = new Set(rng.shuffle(ids).slice(0, 22));
  const notVipFree = new Set(rng.shuffle(ids).slice(0, 13));
  const split = new Set(rng.shuffle(ids).slice(0, rng.int(3, 4)));
  const categoryOf = rng.shuffle(ids.map((i) => (i % categories.length) + 1));
  const authors = penNames(rng, 36);
  const titles = new Set<string>();
  const images: DemoImage[] = [];
  let chapterId = 0;
  const books: DemoBook[] = ids.map((id) => {
    const categoryId = categoryOf[id - 1] as number;
    const words = CATEGORY_WORDS[categoryId - 1] as (typeof CATEGORY_WORDS)[number];
    let title = '';
    while (title === '' || titles.has(title)) {
      const [a, b] = [rng.pick(words.first), rng.pick(words.second)];
      if (a !== b) title = a + b;
    }
    titles.add(title);
    const [p, q] = [rng.pick(SURNAMES) + rng.pick(GIVEN_NAMES), rng.pick(SURNAMES) + rng.pick(GIVEN_NAMES)];
    const sentences = [fill(rng.pick(words.openings), p, q), fill(rng.pick(words.turns), p, q)];
    const status = finished.has(id) ? 'finish' : 'serialize';
    for (const closing of rng.shuffle(CLOSINGS[status]).slice(0, rng.int(0, 2))) sentences.push(closing);
    const createdAt = new Date(DEMO_EPOCH.getTime() - rng.int(20, 90 * 24) * (DAY_MS / 24));
    // Ongoing books were touched in the last week; finished ones stopped somewhere in between.
    const updatedMs =
      status === 'serialize'
        ? DEMO_EPOCH.getTime() - rng.int(1, 7 * 24) * (DAY_MS / 24)
        : createdAt.getTime() + rng.next() * (DEMO_EPOCH.getTime() - createdAt.getTime());
    const readCount = logUniform(rng, 20_000, 80_000_000);
    const book: DemoBook = {
      id,
      title,
      author: authors[id % authors.length] as string,
      cover: demoPaths.verticalCover(id),
      horiCover: demoPaths.horizontalCover(id),
      abstractContent: sentences.join(''),
      categoryId,
      publishStatus: status,
      vipFree: !notVipFree.has(id),
      recommend: Math.round(readCount * (0.004 + rng.next() * 0.03)),
      readCount,
      picSplitCount: split.has(id) ? 2 : 1,
      createdAt,
      updatedAt: new Date(Math.max(createdAt.getTime(), Math.round(updatedMs))),
      chapters: [],
    };
    images.push({ path: book.cover, ...DEMO_SIZES.verticalCover });
    images.push({ path: book.horiCover, ...DEMO_SIZES.horizontalCover });
    chaptersOf(rng, book, rng.int(15, 40), () => ++chapterId, images);
    return book;
  });
  const shop = demoShop(rng, books);
  for (const ad of shop.ads) images.push({ path: ad.imgPath, ...DEMO_SIZES.ad });
  return {
    categories,
    books,
    showcases: showcases(rng, books),
    hotWords: hotWords(rng, books),
    images,
    ...shop,
  };
}

/** What the image drawer needs to know about a demo book, by the index used in its image paths. */
export function demoLookup(lib: DemoLibrary): {
  bookTitle(book: number): string | undefined;
  picSplitCount(book: number): number;
} {
  const byId = new Map(lib.books.map((b) => [b.id, b]));
  return {
    bookTitle: (book) => byId.get(book)?.title,
    picSplitCount: (book) => byId.get(book)?.picSplitCount ?? 1,
  };
}
