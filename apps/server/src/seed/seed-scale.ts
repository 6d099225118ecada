import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { books, categories, imageAssets } from '../db/schema/index.ts';
import { insertPinyinKeys } from '../modules/catalog/search-keys.repository.ts';
import { type SearchKeys, searchKeysOf } from '../modules/catalog/search-keys.ts';
import { rowsOf } from '../shared/rows.ts';
import { DEMO_SIZES } from './demo-geometry.ts';
import {
  CATEGORY_WORDS,
  CHAPTER_SUBTITLES,
  GIVEN_NAMES,
  PEN_FIRST,
  PEN_SECOND,
  SURNAMES,
} from './demo-words.ts';

export interface ScaleOptions {
  books: number;
  chaptersPerBook?: number;
}

/** Placeholder images shared by every synthetic book: k in 1..8. */
const SHARED = 8;
const PAGES_PER_CHAPTER = 4;
/** Chapter rows per statement; bounds the memory one batch needs on either driver. */
const CHAPTER_ROWS_PER_BATCH = 200_000;
export const MAX_SCALE_BOOKS = 1_000_000;
export const MAX_CHAPTERS_PER_BOOK = 2000;

/** A SQL text[] literal of our own constant words (no quotes in them, checked). */
function words(list: readonly string[]): SQL {
  for (const w of list) if (w.includes("'")) throw new Error(`bad word ${w}`);
  return sql.raw(`array[${list.map((w) => `'${w}'`).join(',')}]::text[]`);
}

async function ensureCategories(db: Database): Promise<void> {
  const any = await db.select({ id: categories.id }).from(categories).limit(1);
  if (any.length > 0) return;
  await db
    .insert(categories)
    .values(CATEGORY_WORDS.map((c, i) => ({ name: c.name, sort: i + 1 })))
    .onConflictDoNothing();
}

async function ensurePlaceholders(db: Database): Promise<void> {
  const rows = Array.from({ length: SHARED }, (_, i) => i + 1).flatMap((k) => [
    { path: `covers/shared/${k}-v.png`, ...DEMO_SIZES.verticalCover },
    { path: `covers/shared/${k}-h.png`, ...DEMO_SIZES.horizontalCover },
    { path: `pages/shared/${k}.png`, width: 800, height: 1600 },
    { path: `chapters/shared/${k}.png`, ...DEMO_SIZES.chapterThumb },
  ]);
  await db.insert(imageAssets).values(rows).onConflictDoNothing();
}

/** The words the synthetic rows are made of, and the hashes of the run's row numbers [from, to]. */
function wordsAndRows(from: number, to: number): SQL {
  return sql`
    w as (
      select ${words(CATEGORY_WORDS.flatMap((c) => c.first))} as t1, ${words(CATEGORY_WORDS.flatMap((c) => c.second))} as t2,
        ${words(PEN_FIRST)} as p1, ${words(PEN_SECOND)} as p2, ${words(SURNAMES)} as sn, ${words(GIVEN_NAMES)} as gn,
        ${words(CHAPTER_SUBTITLES)} as sub,
        (select array_agg(id order by id) from categories) as cat_ids,
        (select array_agg(name order by id) from categories) as cat_names
    ), src as (
      select g, (hashint4(g)::bigint & 2147483647) as h, (hashint4(-g)::bigint & 2147483647) as h2,
        now() - make_interval(mins => (hashint4(g) & 2147483647) % 525600) as ct
      from generate_series(${from}::int, ${to}::int) as g
    )`;
}

/** Title and author of row `g`: every "random" choice is a hash of the row number. */
const TITLE = sql.raw('t1[1 + h % cardinality(t1)] || t2[1 + (h / 101) % cardinality(t2)]');
const AUTHOR =
  sql.raw(`case when h2 % 3 = 0 then sn[1 + h2 % cardinality(sn)] || gn[1 + (h2 / 17) % cardinality(gn)]
             else p1[1 + h2 % cardinality(p1)] || p2[1 + (h2 / 19) % cardinality(p2)] end`);

/** The title and author of books [from, to] of the run, as the insert writes them: what their keys are made from. */
const batchTextSql = (from: number, to: number) => sql`
  with ${wordsAndRows(from, to)}
  select g, ${TITLE} as title, ${AUTHOR} as author from src cross join w order by g`;

/**
 * One statement inserts books [from, to] of the run with their search keys (computed by the server from the text
 * it was given, `keyed`), their pinyin keys and all their chapters. Every "random" choice is a hash of the row
 * number, so a run is repeatable.
 */
function batchSql(from: number, to: number, perBook: number, keyed: KeyedRow[]): SQL {
  const pic = (k: number) => sql.raw(`'pages/shared/' || (1 + (b.id + n + ${k}) % ${SHARED}) || '.png'`);
  const pics = Array.from({ length: PAGES_PER_CHAPTER }, (_, k) => pic(k));
  const texts = keyed.map(({ g, id, title, author, keys }) => ({
    g,
    id,
    title,
    author,
    title_key: keys.searchTitle,
    author_key: keys.searchAuthor,
    readings: keys.searchPinyin,
  }));
  // pick(list, hash) is list[1 + hash % length]; the hashes are non-negative bigints.
  return sql`
    with ${wordsAndRows(from, to)}, r as (
      select src.*, floor(exp(ln(1000) + (h2 % 10000) / 10000.0 * ln(50000)))::int as rc from src
    ), k as (
      select * from json_to_recordset(${JSON.stringify(texts)}::json)
        as k (g int, id int, title text, author text, title_key text, author_key text, readings text)
    ), b as (
      insert into books (id, title, author, cover, hori_cover, abstract_content, category_id, publish_status,
        vip_free, recommend, read_count, chapter_count, pic_split_count, created_at, updated_at,
        search_title, search_author, search_aliases, search_pinyin)
      select
        k.id,
        k.title,
        k.author,
        'covers/shared/' || (1 + r.g % ${SHARED}) || '-v.png',
        'covers/shared/' || (1 + r.g % ${SHARED}) || '-h.png',
        '一部' || cat_names[1 + h % cardinality(cat_ids)] || '题材的漫画，讲述了' ||
          sn[1 + (h / 7) % cardinality(sn)] || gn[1 + (h / 13) % cardinality(gn)] || '的故事。',
        cat_ids[1 + h % cardinality(cat_ids)],
        case when h % 3 = 0 then 'finish' else 'serialize' end,
        h2 % 5 <> 0,
        rc / (20 + h % 80),
        rc,
        ${perBook}::int,
        1,
        ct,
        case when h % 3 = 0 then ct + (now() - ct) * ((h2 % 1000) / 1000.0)
             else greatest(ct, now() - make_interval(mins => (h2 % 10080)::int)) end,
        k.title_key,
        k.author_key,
        '',
        k.readings
      from r cross join w join k on k.g = r.g
      returning id, created_at, updated_at
    )
    insert into chapters (book_id, number, title, cover, price, pics, created_at)
    select b.id, n,
      '第' || n || '话 ' || sub[1 + (b.id + n * 7) % cardinality(sub)],
      'chapters/shared/' || (1 + (b.id + n) % ${SHARED}) || '.png',
      case when n <= 3 then 0 else 20 + (b.id % 9) * 5 end,
      array[${sql.join(pics, sql`, `)}],
      b.created_at + (b.updated_at - b.created_at) * ((n - 1)::float8 / greatest(${perBook}::int - 1, 1))
    from b cross join w cross join generate_series(1, ${perBook}::int) as n`;
}

interface KeyedRow {
  g: number;
  /** The book's id, taken from the sequence before it is written. */
  id: number;
  title: string;
  author: string;
  keys: SearchKeys;
}

/**
 * Adds synthetic books (for load tests) with set-based SQL, a batch of books per statement so memory
 * stays flat at any size. Titles, authors and covers repeat across books; counts stay consistent.
 */
export async function seedScale(
  db: Database,
  opts: ScaleOptions,
): Promise<{ books: number; chapters: number; ms: number; keysMs: number }> {
  const perBook = opts.chaptersPerBook ?? 20;
  if (!Number.isInteger(opts.books) || opts.books < 1 || opts.books > MAX_SCALE_BOOKS) {
    throw new RangeError(`books must be a whole number from 1 to ${MAX_SCALE_BOOKS}, got ${opts.books}`);
  }
  if (!Number.isInteger(perBook) || perBook < 1 || perBook > MAX_CHAPTERS_PER_BOOK) {
    throw new RangeError(
      `chaptersPerBook must be a whole number from 1 to ${MAX_CHAPTERS_PER_BOOK}, got ${perBook}`,
    );
  }
  const started = performance.now();
  await ensureCategories(db);
  await ensurePlaceholders(db);
  // Row numbers continue from earlier runs so a second run gets other titles.
  const [last] = await db.select({ n: sql`coalesce(max(${books.id}), 0)`.mapWith(Number) }).from(books);
  const base = last?.n ?? 0;
  const batch = Math.max(1, Math.min(10_000, Math.floor(CHAPTER_ROWS_PER_BATCH / perBook)));
  let keysMs = 0;
  for (let done = 0; done < opts.books; done += batch) {
    const size = Math.min(batch, opts.books - done);
    const from = base + done + 1;
    const to = base + done + size;
    // The search keys are computed as the books are written (docs/decisions.md, "Search the way readers type"):
    // the books go in with theirs, then their pinyin keys (by the ids taken for them first).
    const text = rowsOf<{ g: number; title: string; author: string }>(
      await db.execute(batchTextSql(from, to)),
    );
    const ids = rowsOf<{ id: number }>(
      await db.execute(
        sql`select nextval(pg_get_serial_sequence('books', 'id'))::int as id from generate_series(1, ${text.length}::int)`,
      ),
    );
    let keying = performance.now();
    const keyed = text.map((t, i) => ({
      g: Number(t.g),
      id: Number(ids[i]?.id),
      title: t.title,
      author: t.author,
      keys: searchKeysOf({ title: t.title, author: t.author, aliases: [] }),
    }));
    keysMs += performance.now() - keying;
    await db.execute(batchSql(from, to, perBook, keyed));
    keying = performance.now();
    await insertPinyinKeys(
      db,
      keyed.flatMap(({ id, keys }) => keys.pinyinKeys.map((k) => ({ id, ...k }))),
    );
    keysMs += performance.now() - keying;
  }
  // Each batch rewrote the posting lists its books joined (book_postings, kept by triggers on books): the old
  // versions go now, as autovacuum would do on PostgreSQL (PGlite has none).
  await db.execute(sql`vacuum book_postings`);
  // And the pinyin keys' pages become all-visible: a key range is then read from the index alone.
  await db.execute(sql`vacuum book_pinyin_keys`);
  await db.execute(sql`analyze`);
  return {
    books: opts.books,
    chapters: opts.books * perBook,
    ms: Math.round(performance.now() - started),
    keysMs: Math.round(keysMs),
  };
}
