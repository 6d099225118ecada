// Data and measurements for bench/scale.mjs, in TypeScript so it runs the server's own schema, seed, repository
// and service: a 100,000-book database (seeded once, then reused), and the p95 of every search and list call
// through the catalogue's service functions beside the same SQL statements sent bare to the driver, with the
// EXPLAIN check of each statement (no sequential scan of books or chapters).
import { sql } from 'drizzle-orm';
import { type Database, type DatabaseTarget, openDatabase } from '../apps/server/src/db/client.ts';
import { bookCounts, books, categories } from '../apps/server/src/db/schema/index.ts';
import { createCatalogRepository } from '../apps/server/src/modules/catalog/catalog.repository.ts';
import * as catalogService from '../apps/server/src/modules/catalog/catalog.service.ts';
import * as searchService from '../apps/server/src/modules/catalog/search.service.ts';
import { fillAllSearchKeys } from '../apps/server/src/modules/catalog/search-keys.repository.ts';
import { parseReadings } from '../apps/server/src/modules/catalog/search-keys.ts';
import { createUnlockReadsRepository } from '../apps/server/src/modules/wallet/unlock-reads.repository.ts';
import { createUnlocksRepository } from '../apps/server/src/modules/wallet/unlocks.repository.ts';
import { seedDemoLibrary } from '../apps/server/src/seed/seed-demo.ts';
import { seedScale } from '../apps/server/src/seed/seed-scale.ts';
import { rowsOf } from '../apps/server/src/shared/rows.ts';

export interface ScaleSize {
  /** Synthetic books (beside the demo library's). */
  books: number;
  /** Chapters of each synthetic book. */
  chapters: number;
  /** Chapters of the one long book whose catalogue is measured. */
  longChapters: number;
}

export interface SeedReport {
  reused: boolean;
  books: number;
  chapters: number;
  /** The seed's own figure (seedScale), when this run seeded. */
  scaleSeedMs?: number;
  /** Computing the search keys of every book as the seed wrote it (the index build), when this run seeded. */
  searchKeysMs?: number;
  longBookId: number;
}

/** The seed's title for the long book; the bench finds it again by this title. */
const LONG_TITLE = '二千话长篇';

/** Seeds the demo library and `size` synthetic books into the database unless it already holds them; finds the long book. */
export async function prepareScaleData(target: DatabaseTarget, size: ScaleSize): Promise<SeedReport> {
  const { db, close } = await openDatabase(target);
  try {
    const total = async () =>
      Number(
        rowsOf<{ n: string | number }>(
          await db.execute(sql`select coalesce(sum(${bookCounts.n}), 0) as n from ${bookCounts}`),
        )[0]?.n ?? 0,
      );
    const findLong = async () =>
      (await db.select({ id: books.id }).from(books).where(sql`${books.title} = ${LONG_TITLE}`).limit(1))[0]
        ?.id;
    const had = await total();
    if (had > 0 && had < size.books) {
      throw new Error(`the database holds ${had} books, fewer than the bench's ${size.books}: start afresh`);
    }
    let scaleSeedMs: number | undefined;
    let searchKeysMs: number | undefined;
    if (had === 0) {
      await seedDemoLibrary(db);
      const seeded = await seedScale(db, { books: size.books, chaptersPerBook: size.chapters });
      scaleSeedMs = seeded.ms;
      // The seed computes every book's search keys as it writes it (the index build); their rows go in with the
      // books' own statements.
      searchKeysMs = seeded.keysMs;
    }
    let longBookId = await findLong();
    if (longBookId === undefined) {
      await seedScale(db, { books: 1, chaptersPerBook: size.longChapters });
      const [last] = await db.select({ id: sql<number>`max(${books.id})`.mapWith(Number) }).from(books);
      await db
        .update(books)
        .set({ title: LONG_TITLE })
        .where(sql`${books.id} = ${last?.id ?? 0}`);
      longBookId = await findLong();
      if (longBookId === undefined) throw new Error('the long book is missing after the seed');
    }
    // The long book's new title (written by SQL, as another writer would) is keyed as the search-keys job keys it.
    await fillAllSearchKeys(db);
    const [chapterRow] = rowsOf<{ n: string | number }>(
      await db.execute(sql`select sum(${books.chapterCount}) as n from ${books}`),
    );
    return {
      reused: scaleSeedMs === undefined,
      books: await total(),
      chapters: Number(chapterRow?.n ?? 0),
      scaleSeedMs,
      searchKeysMs,
      longBookId,
    };
  } finally {
    await close();
  }
}

// ------------------------------------------------------------------------------------------ statements

/** One statement as the driver received it: the SQL text, its parameters, and the driver's options. */
interface Statement {
  text: string;
  params: unknown[];
  options: unknown;
}

type QueryFn = (...args: unknown[]) => Promise<unknown>;

/**
 * Records what the repository sends: drizzle calls `query` on its client (node-postgres' Pool, or PGlite) with
 * the text and parameters, as `query({ text, rowMode, types }, params)` or `query(text, params)` on node-postgres and
 * `query(text, params, options)` on PGlite. `bare` sends a recorded statement again, the same way, on the same client.
 */
function recordQueries(db: Database) {
  const client = (db as unknown as { $client: { query: QueryFn } }).$client;
  const original = client.query.bind(client);
  let recording: Statement[] | null = null;
  client.query = (...args: unknown[]) => {
    if (recording) {
      const [first, second, third] = args;
      if (typeof first === 'string')
        recording.push({ text: first, params: (second as unknown[]) ?? [], options: third });
      else {
        const config = first as { text: string; values?: unknown[] };
        recording.push({
          text: config.text,
          params: (second as unknown[]) ?? config.values ?? [],
          options: first,
        });
      }
    }
    return original(...args);
  };
  return {
    async record<T>(fn: () => Promise<T>): Promise<Statement[]> {
      recording = [];
      try {
        await fn();
        return recording;
      } finally {
        recording = null;
      }
    },
    bare(s: Statement) {
      if (typeof s.options === 'object' && s.options !== null && 'text' in s.options) {
        return original(s.options, s.params);
      }
      return s.options === undefined ? original(s.text, s.params) : original(s.text, s.params, s.options);
    },
    explain: (s: Statement) => original(`explain (format json) ${s.text}`, s.params),
  };
}

/** Nodes of a JSON plan that scan books or chapters sequentially. */
function seqScans(plan: unknown, found: string[] = []): string[] {
  if (Array.isArray(plan)) for (const p of plan) seqScans(p, found);
  else if (plan && typeof plan === 'object') {
    const node = plan as Record<string, unknown>;
    const relation = node['Relation Name'];
    if (node['Node Type'] === 'Seq Scan' && (relation === 'books' || relation === 'chapters')) {
      found.push(`Seq Scan on ${relation}`);
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') seqScans(value, found);
  }
  return found;
}

function planOf(result: unknown): unknown {
  const [row] = rowsOf<Record<string, unknown>>(result);
  const value = row ? Object.values(row)[0] : undefined;
  return typeof value === 'string' ? JSON.parse(value) : value;
}

// ------------------------------------------------------------------------------------------------ cases

export interface CaseResult {
  name: string;
  kind: 'search' | 'list';
  /** The aim of the call's p95 in ms. */
  aimMs: number;
  calls: number;
  statements: number;
  p50: number;
  p95: number;
  bareP50: number;
  bareP95: number;
  /** Distinct statements EXPLAINed, and the sequential scans of books or chapters among their plans. */
  explained: number;
  seqScans: string[];
  sample: string;
}

interface Case {
  name: string;
  kind: 'search' | 'list';
  aimMs: number;
  /** The i-th call. */
  call: (i: number) => Promise<unknown>;
  /** How many different calls there are (keywords, pages, books); calls cycle through them. */
  variety: number;
  describe: (i: number) => string;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
const round = (n: number) => Math.round(n * 1000) / 1000;

/** A repeatable pseudo-random sequence (the same keywords on both databases and in every run). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return s / 2 ** 32;
  };
}

/** `count` keywords of `length` characters, each cut at a random place from the title of a random synthetic book. */
async function keywordsFrom(db: Database, length: number, count: number, seed: number): Promise<string[]> {
  const rnd = random(seed);
  const [range] = await db
    .select({
      lo: sql<number>`min(${books.id})`.mapWith(Number),
      hi: sql<number>`max(${books.id})`.mapWith(Number),
    })
    .from(books);
  const lo = range?.lo ?? 1;
  const hi = range?.hi ?? 1;
  const out: string[] = [];
  for (let guard = 0; out.length < count && guard < count * 20; guard++) {
    const id = lo + Math.floor(rnd() * (hi - lo + 1));
    const [row] = await db.select({ title: books.title }).from(books).where(sql`${books.id} = ${id}`);
    const chars = [...(row?.title ?? '')];
    if (chars.length < length) continue;
    const at = Math.floor(rnd() * (chars.length - length + 1));
    out.push(chars.slice(at, at + length).join(''));
  }
  return out;
}

/**
 * `count` pinyin keywords from the readings of random synthetic books' titles: the initials of their first four
 * characters (`initials`), or the full pinyin of their first two.
 */
async function pinyinKeywords(
  db: Database,
  initials: boolean,
  count: number,
  seed: number,
): Promise<string[]> {
  const rnd = random(seed);
  const [range] = await db.select({ hi: sql<number>`max(${books.id})`.mapWith(Number) }).from(books);
  // Ids 1 to 100,000 at the bench's size (as the first figures were taken), the library's own in a smaller one.
  const hi = Math.min(range?.hi ?? 1, 100_000);
  const out: string[] = [];
  for (let guard = 0; out.length < count && guard < count * 20; guard++) {
    const [row] = await db
      .select({ readings: books.searchPinyin })
      .from(books)
      .where(sql`${books.id} = ${1 + Math.floor(rnd() * hi)}`);
    const readings = parseReadings(row?.readings ?? '').map((r) => r[0] ?? '');
    if (readings.length < 4 || readings.some((r) => r === '')) continue;
    out.push(
      initials
        ? readings
            .slice(0, 4)
            .map((r) => r[0])
            .join('')
        : readings.slice(0, 2).join(''),
    );
  }
  return out;
}

export interface MeasureOptions {
  /** Timed calls per case (after the warm-up). */
  calls: number;
  warmup: number;
  searchAimMs: number;
  suggestAimMs: number;
  listAimMs: number;
  longBookId: number;
  /** Keywords per length. */
  keywords: number;
}

/** The catalogue code measured: this checkout's, or another version's (BENCH_SCALE_CATALOG, for a before/after). */
export interface CatalogCode {
  createCatalogRepository: typeof createCatalogRepository;
  service: typeof catalogService;
}

/** Every case: warm-up, timed calls through the service, the same statements bare, then the EXPLAIN check. */
export async function measureScale(
  target: DatabaseTarget,
  opts: MeasureOptions,
  log: (line: string) => void,
  code: CatalogCode = { createCatalogRepository, service: catalogService },
): Promise<CaseResult[]> {
  const { db, close } = await openDatabase(target);
  const service = code.service;
  try {
    const recorder = recordQueries(db);
    const repo = code.createCatalogRepository(db);
    const unlocks = createUnlocksRepository(db);
    const unlockReads = createUnlockReadsRepository(db);
    const deps: catalogService.CatalogDeps = {
      repo,
      unlocks: {
        heldUnlock: (userId, chapterId) => unlocks.held(userId, chapterId),
        unlockOptions: (userId, chapterId) => unlocks.options(userId, chapterId),
        chapterMarks: unlockReads.chapterMarks,
        bookWaitFree: unlockReads.bookWaitFree,
      },
      grantPage: (path) => path,
    };
    const cats = await db.select({ id: categories.id }).from(categories).orderBy(categories.id);
    const cat = (i: number) => cats[i % cats.length]?.id ?? 1;
    const bookIds = rowsOf<{ id: number }>(
      await db.execute(sql`select id from books where chapter_count = 20 order by id limit 200`),
    ).map((r) => r.id);

    const cases: Case[] = [];
    for (const length of [1, 2, 4]) {
      const words = await keywordsFrom(db, length, opts.keywords, 1000 + length);
      cases.push({
        name: `search, ${length}-character keywords, page 1`,
        kind: 'search',
        aimMs: opts.searchAimMs,
        variety: words.length,
        call: (i) => searchService.search(deps, { content: words[i % words.length] ?? '', page: 1 }),
        describe: (i) => words[i % words.length] ?? '',
      });
    }
    const searchDeps = deps;
    const searchCase = (name: string, words: string[], aimMs = opts.searchAimMs) =>
      cases.push({
        name,
        kind: 'search',
        aimMs,
        variety: words.length,
        call: (i) => searchService.search(searchDeps, { content: words[i % words.length] ?? '', page: 1 }),
        describe: (i) => words[i % words.length] ?? '',
      });
    searchCase('search, 4-letter initials, page 1', await pinyinKeywords(db, true, opts.keywords, 3004));
    searchCase(
      'search, full pinyin of 2 characters, page 1',
      await pinyinKeywords(db, false, opts.keywords, 3005),
    );
    searchCase(
      'search, keywords that match nothing, page 1',
      Array.from({ length: opts.keywords }, (_, i) => `查无此书${i}号`),
    );
    const typed = [
      ...(await keywordsFrom(db, 2, opts.keywords, 4002)),
      ...(await pinyinKeywords(db, true, opts.keywords, 4004)),
    ];
    cases.push({
      name: 'suggestions, 2-character keywords and 4-letter initials',
      kind: 'search',
      aimMs: opts.suggestAimMs,
      variety: typed.length,
      call: (i) => searchService.suggest(searchDeps, { content: typed[i % typed.length] ?? '' }),
      describe: (i) => typed[i % typed.length] ?? '',
    });
    const twoChars = await keywordsFrom(db, 2, opts.keywords, 2002);
    cases.push({
      name: 'search, 2-character keywords, pages 2-5',
      kind: 'search',
      aimMs: opts.searchAimMs,
      variety: twoChars.length * 4,
      call: (i) =>
        searchService.search(deps, { content: twoChars[i % twoChars.length] ?? '', page: 2 + (i % 4) }),
      describe: (i) => `${twoChars[i % twoChars.length]} page ${2 + (i % 4)}`,
    });
    const list = (name: string, variety: number, call: Case['call'], describe: Case['describe']) =>
      cases.push({ name, kind: 'list', aimMs: opts.listAimMs, variety, call, describe });
    for (const type of ['e_recommend', 'new', 'hot', 'kkbg', 'new_on'] as const) {
      list(
        `showcase ${type}, page 1`,
        1,
        () => service.showcaseDetail(deps, { type, page: 1 }),
        () => `/api/book/showcase/detail/${type}/1`,
      );
    }
    list(
      'updated books (/api/book/new), pages 1-10',
      10,
      (i) => service.updatedBooks(deps, { page: 1 + (i % 10) }),
      (i) => `/api/book/new/${1 + (i % 10)}`,
    );
    list(
      'home index',
      1,
      () => service.homeIndex(deps),
      () => '/api/book/home/index',
    );
    const filters = [
      ['all', 0],
      ['finish', 0],
      ['serialize', 0],
      ['all', -1],
      ['finish', -1],
    ] as const;
    list(
      'category filter (/api/book/query), pages 1-10',
      filters.length * 10,
      (i) => {
        const [status, category] = filters[i % filters.length] ?? ['all', 0];
        return service.queryBooks(deps, {
          publishStatus: status,
          categoryId: category < 0 ? cat(i) : 0,
          page: 1 + (Math.floor(i / filters.length) % 10),
        });
      },
      (i) => {
        const [status, category] = filters[i % filters.length] ?? ['all', 0];
        return `/api/book/query/${status}/${category < 0 ? cat(i) : 0}/${1 + (Math.floor(i / filters.length) % 10)}`;
      },
    );
    list(
      'book detail (20 chapters)',
      bookIds.length,
      (i) => service.bookDetail(deps, { bookId: bookIds[i % bookIds.length] ?? 1 }),
      (i) => `/api/book/detail/${bookIds[i % bookIds.length]}`,
    );
    list(
      `book detail (${opts.longBookId}: the long book)`,
      1,
      () => service.bookDetail(deps, { bookId: opts.longBookId }),
      () => `/api/book/detail/${opts.longBookId}`,
    );
    list(
      'catalogue (chapter/list) of the long book, anonymous',
      1,
      () => service.chapterList(deps, { bookId: opts.longBookId, userId: null }),
      () => `/api/book/chapter/list?bookId=${opts.longBookId}`,
    );
    list(
      'catalogue (chapter/list) of the long book, signed in',
      1,
      () => service.chapterList(deps, { bookId: opts.longBookId, userId: 1 }),
      () => `/api/book/chapter/list?bookId=${opts.longBookId} (user 1)`,
    );

    const results: CaseResult[] = [];
    for (const c of cases) {
      for (let i = 0; i < opts.warmup; i++) await c.call(i);
      const times: number[] = [];
      const recorded: Statement[][] = [];
      for (let i = 0; i < opts.calls; i++) {
        const started = performance.now();
        recorded.push(await recorder.record(() => c.call(i)));
        times.push(performance.now() - started);
      }
      // The same statements, sent bare the way the call sent them (at once when the service sends them at once).
      const bareTimes: number[] = [];
      for (let i = 0; i < Math.min(opts.warmup, recorded.length); i++) {
        await Promise.all((recorded[i] ?? []).map((s) => recorder.bare(s)));
      }
      for (const statements of recorded) {
        const started = performance.now();
        await Promise.all(statements.map((s) => recorder.bare(s)));
        bareTimes.push(performance.now() - started);
      }
      const distinct = new Map<string, Statement>();
      for (const statements of recorded.slice(0, c.variety)) {
        for (const s of statements) distinct.set(`${s.text}\u0000${JSON.stringify(s.params)}`, s);
      }
      const scans = new Set<string>();
      for (const s of distinct.values()) {
        for (const scan of seqScans(planOf(await recorder.explain(s)))) scans.add(`${scan} in: ${s.text}`);
      }
      times.sort((a, b) => a - b);
      bareTimes.sort((a, b) => a - b);
      const result: CaseResult = {
        name: c.name,
        kind: c.kind,
        aimMs: c.aimMs,
        calls: times.length,
        statements: recorded[0]?.length ?? 0,
        p50: round(percentile(times, 0.5)),
        p95: round(percentile(times, 0.95)),
        bareP50: round(percentile(bareTimes, 0.5)),
        bareP95: round(percentile(bareTimes, 0.95)),
        explained: distinct.size,
        seqScans: [...scans],
        sample: c.describe(0),
      };
      results.push(result);
      log(
        `${result.name.padEnd(56)} p95 ${result.p95.toFixed(2).padStart(7)} ms (bare ${result.bareP95.toFixed(2).padStart(6)} ms)` +
          `  aim ${result.aimMs} ms ${result.p95 <= result.aimMs ? 'ok' : 'MISSED'}` +
          `${result.seqScans.length > 0 ? `  SEQ SCAN: ${result.seqScans.length}` : ''}`,
      );
    }
    return results;
  } finally {
    await close();
  }
}
