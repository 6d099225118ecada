import type { Book, ChapterItem, ShowcaseType } from '@yueman/contract';
import { and, asc, count, eq, inArray, isNotNull, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database, Queryable } from '../../db/client.ts';
import {
  ads,
  bookCounts,
  bookPinyinKeys,
  bookPostings,
  books,
  categories,
  chapterLists,
  chapters,
  hotWords,
  imageAssets,
  showcaseEntries,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

const bookColumns = {
  bookId: books.id,
  title: books.title,
  author: books.author,
  cover: books.cover,
  horiCover: books.horiCover,
  abstractContent: books.abstractContent,
  categoryName: categories.name,
  recommend: books.recommend,
  readCount: books.readCount,
  publishStatus: books.publishStatus,
  chapterCount: books.chapterCount,
  vipFree: books.vipFree,
};

/** What a suggestion shows of why a book matched (beside its tier). */
const matchColumns = { aliases: books.aliases, readings: books.searchPinyin };

/** A book a search found, with its tier (SEARCH_TIERS) and what explains the match. */
export type SearchHit = Book & { tier: number; aliases: string[]; readings: string | null };

/** Books a typo search checks at most. */
const TYPO_CANDIDATES = 300;

const chapterColumns = {
  bookId: chapters.bookId,
  number: chapters.number,
  title: chapters.title,
  cover: chapters.cover,
  price: chapters.price,
  chapterId: chapters.id,
};

export interface BookFilter {
  publishStatus?: 'finish' | 'serialize';
  categoryId?: number;
}

/**
 * The search's tiers, best first: the ranking readers get (docs/decisions.md, "Search the way readers type"). Within
 * a tier, books go by the bucket their postings hold, read count and id.
 */
export const SEARCH_TIERS = {
  exactTitle: 1,
  titlePrefix: 2,
  title: 3,
  alias: 4,
  pinyin: 5,
  author: 6,
  description: 7,
  typo: 8,
} as const;

/** A posting list's field (1 title, 2 aliases, 3 author, 4 description, migration 0019) as a search tier. */
const postingTier = (tier: SQL) => sql`(array[3, 4, 6, 7]::smallint[])[${tier}]`;

/**
 * The books a folded keyword is a substring of, each with its posting tier (the first field that has it), at least
 * those of the rows [0, end) of the search's order (docs/decisions.md, "Search and lists at 100,000 books").
 *
 * One or two characters: the keyword is a gram. Its lists are read in (tier, bucket desc) order (the index
 * book_postings_key), at most `end` of them since each holds a book, and a list's books are taken only while the
 * lists before it hold fewer than `end`: the rows [0, end) are all in the lists taken, since a book in a lower
 * bucket has fewer reads than every book in a higher one.
 */
const gramHits = (keyword: string, end: number) => sql`
  select l.tier, m.id
  from (
    select s.tier, s.ids, sum(s.n) over (order by s.tier, s.bucket desc nulls last rows unbounded preceding) - s.n
      as before
    from (
      select ${bookPostings.tier} as tier, ${bookPostings.bucket} as bucket, ${bookPostings.n} as n,
        ${bookPostings.bookIds} as ids
      from ${bookPostings} where ${bookPostings.gram} = ${keyword} and ${bookPostings.n} > 0
      order by ${bookPostings.tier}, ${bookPostings.bucket} desc nulls last limit ${end}
    ) as s
  ) as l cross join lateral unnest(l.ids) as m (id)
  where l.before < ${end}`;

/** Three characters or more: the database function book_search_text (migrations 0006, 0019) walks the lists. */
const textHits = (keyword: string, end: number) =>
  sql`select t.tier, t.id from book_search_text(${keyword}, ${end}) as t`;

/** The search's order of books in one tier. */
const inTierOrder = sql`b.indexed_bucket desc nulls last, b.read_count desc nulls last, b.id`;

/**
 * Pinyin: the books with a key the keyword begins, ranked by the key index alone (it holds each key's tier and its
 * book's bucket, null while unpublished), and only those ranked within the first `end` by (tier, bucket) read from
 * the books, with the ties of the last: the search's first `end` are among them, since the order within a bucket is
 * read count, then id (the same argument as the postings').
 */
const pinyinHits = (keyword: string, end: number) => sql`
  select p.tier, p.id from (
    select ${bookPinyinKeys.bookId} as id, min(${bookPinyinKeys.tier}) as tier,
      rank() over (order by min(${bookPinyinKeys.tier}), max(${bookPinyinKeys.bucket}) desc) as place
    from ${bookPinyinKeys}
    where ${bookPinyinKeys.key} >= ${keyword} and ${bookPinyinKeys.key} < ${`${keyword}{`}
      and ${bookPinyinKeys.bucket} is not null
    group by 1
  ) as p join ${books} as b on b.id = p.id and b.published
  where p.place <= ${end}
  order by p.tier, ${inTierOrder} limit ${end}`;

/**
 * Every way a folded keyword finds books, each source in the search's order and cut at `end`: then the first `end`
 * books of the union, each at its best tier, are exactly the search's first `end` (a book a source left out has
 * `end` books before it in that source, each at least as good in the union). Exact title and title prefix by the
 * folded title's index; substrings by the postings; pinyin by the key index (when the keyword may be pinyin).
 */
const searchHits = (keyword: string, end: number, pinyin: boolean) => sql`(
  select min(u.tier) as tier, u.id from (
    (select ${SEARCH_TIERS.exactTitle}::smallint as tier, b.id from ${books} as b
      where b.search_title = ${keyword} and b.published order by ${inTierOrder} limit ${end})
    union all
    (select ${SEARCH_TIERS.titlePrefix}::smallint, b.id from ${books} as b
      where b.search_title > ${keyword} and b.search_title < ${keyword} || chr(1114111) and b.published
      order by ${inTierOrder} limit ${end})
    union all
    (select ${postingTier(sql`h.tier`)}, h.id from (${[...keyword].length <= 2 ? gramHits(keyword, end) : textHits(keyword, end)}) as h)
    ${
      pinyin
        ? sql`union all
    (${pinyinHits(keyword, end)})`
        : sql``
    }
  ) as u group by u.id
) as hit`;

/**
 * `column desc nulls last`: the order of the books' indexes (drizzle's `.desc()` in an index is DESC NULLS LAST,
 * its `desc()` in a query plain DESC, which is NULLS FIRST). The columns are NOT NULL, so the rows come in the
 * same order either way, but PostgreSQL walks an index for an ORDER BY only when the NULLS placement matches too:
 * with plain `desc()` every list sorted the whole books table.
 */
const newestFirst = (column: AnyPgColumn) => sql`${column} desc nulls last`;

/** What readers may see: published books only (an operator's unpublished book is gone from every list). */
const published = eq(books.published, true);
/** …and chapters that are out (a scheduled chapter has a publish time until the job lets it out). */
const chapterOut = isNull(chapters.publishAt);

/**
 * Counts a book's chapters that are out into books.chapter_count; `updated`: the book moves to the top of the
 * daily-update list (a chapter just came out).
 */
export function recountChapters(q: Queryable, bookIds: number[], updated: boolean) {
  return q
    .update(books)
    .set({
      chapterCount: sql`(select count(*) from ${chapters} where ${chapters.bookId} = ${books.id} and ${chapters.publishAt} is null)`,
      ...(updated ? { updatedAt: sql`now()` } : {}),
    })
    .where(inArray(books.id, bookIds));
}

export function createCatalogRepository(db: Database) {
  const selectBooks = () =>
    db.select(bookColumns).from(books).innerJoin(categories, eq(books.categoryId, categories.id));

  /** The books of a list page in `order`, and the list's length (`total`: from book_counts, not a count). */
  async function pageOfBooks(
    where: SQL | undefined,
    order: SQL[],
    limit: number,
    offset: number,
    total: Promise<number>,
  ) {
    const [rows, n] = await Promise.all([
      selectBooks()
        .where(and(published, where))
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
      total,
    ]);
    return { rows: rows as Book[], total: n };
  }

  /** How many books have this publish status and category (either may be left out): a sum of book_counts rows. */
  async function bookTotal(filter: BookFilter): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${bookCounts.n}), 0)`.mapWith(Number) })
      .from(bookCounts)
      .where(
        and(
          filter.publishStatus ? eq(bookCounts.publishStatus, filter.publishStatus) : undefined,
          filter.categoryId ? eq(bookCounts.categoryId, filter.categoryId) : undefined,
        ),
      );
    return row?.n ?? 0;
  }

  const byReadCount = [newestFirst(books.readCount), asc(books.id)];
  const byUpdate = [newestFirst(books.updatedAt), asc(books.id)];

  return {
    /**
     * Lets out every scheduled chapter whose time has come, in one transaction with its book's count and update
     * time; answers how many.
     */
    async publishDueChapters(now: Date): Promise<number> {
      return db.transaction(async (tx) => {
        const out = await tx
          .update(chapters)
          .set({ publishAt: null })
          .where(and(isNotNull(chapters.publishAt), lte(chapters.publishAt, now)))
          .returning({ bookId: chapters.bookId });
        const bookIds = [...new Set(out.map((c) => c.bookId))];
        if (bookIds.length > 0) await recountChapters(tx, bookIds, true);
        return out.length;
      });
    },

    /** Moves up to `batch` books whose read count left their search postings' bucket (book_buckets_refresh). */
    async moveSearchBuckets(batch: number): Promise<number> {
      const [row] = rowsOf<{ moved: number }>(
        await db.execute(sql`select book_buckets_refresh(${batch}::int) as moved`),
      );
      return Number(row?.moved ?? 0);
    },

    filteredBooks(filter: BookFilter, limit: number, offset: number) {
      const where = and(
        filter.publishStatus ? eq(books.publishStatus, filter.publishStatus) : undefined,
        filter.categoryId ? eq(books.categoryId, filter.categoryId) : undefined,
      );
      return pageOfBooks(where, byReadCount, limit, offset, bookTotal(filter));
    },

    recentlyUpdated(limit: number, offset: number) {
      return pageOfBooks(undefined, byUpdate, limit, offset, bookTotal({}));
    },

    /** The first books by last update, without the list's total (home's update section). */
    async latestUpdates(limit: number) {
      return (await selectBooks()
        .where(published)
        .orderBy(...byUpdate)
        .limit(limit)) as Book[];
    },

    async showcase(type: ShowcaseType, limit: number, offset: number) {
      const where = and(eq(showcaseEntries.type, type), published);
      const [rows, [total]] = await Promise.all([
        selectBooks()
          .innerJoin(showcaseEntries, eq(showcaseEntries.bookId, books.id))
          .where(where)
          .orderBy(asc(showcaseEntries.sort), asc(books.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: count() })
          .from(showcaseEntries)
          .innerJoin(books, eq(books.id, showcaseEntries.bookId))
          .where(where),
      ]);
      return { rows: rows as Book[], total: total?.n ?? 0 };
    },

    /** The first `limit` books of each showcase, in one query (home's sections): showcase type to books. */
    async showcaseHeads(types: readonly ShowcaseType[], limit: number): Promise<Map<ShowcaseType, Book[]>> {
      const head = sql`(
        select s.type, s.book_id, s.sort
        from (values ${sql.join(
          types.map((t) => sql`(${t}::text)`),
          sql`, `,
        )}) as t (type)
        cross join lateral (
          select ${showcaseEntries.type} as type, ${showcaseEntries.bookId} as book_id, ${showcaseEntries.sort} as sort
          from ${showcaseEntries} join ${books} on ${books.id} = ${showcaseEntries.bookId} and ${books.published}
          where ${showcaseEntries.type} = t.type
          order by ${showcaseEntries.sort}, ${showcaseEntries.bookId} limit ${limit}
        ) as s
      ) as head`;
      const rows = await db
        .select({ showcase: sql<ShowcaseType>`head.type`, book: bookColumns })
        .from(books)
        .innerJoin(categories, eq(books.categoryId, categories.id))
        .innerJoin(head, sql`head.book_id = ${books.id}`)
        .orderBy(sql`head.type`, sql`head.sort`, asc(books.id));
      const heads = new Map<ShowcaseType, Book[]>(types.map((t) => [t, []]));
      for (const { showcase, book } of rows) heads.get(showcase)?.push(book as Book);
      return heads;
    },

    /**
     * A page of the books a folded keyword finds, in the search's tiers (SEARCH_TIERS), each with its tier and
     * what a suggestion explains the match by. Served by indexes and posting lists, never a scan of the books.
     */
    async searchBooks(keyword: string, limit: number, offset: number, o: { pinyin: boolean }) {
      const hit = searchHits(keyword, offset + limit, o.pinyin);
      // By the bucket the postings hold first: while the search-buckets job has not yet moved a book whose reads
      // crossed a bucket, pages stay consistent with the lists they were read from (the same order once it has).
      const rows = await db
        .select({ ...bookColumns, ...matchColumns, tier: sql<number>`hit.tier`.mapWith(Number) })
        .from(books)
        .innerJoin(categories, eq(books.categoryId, categories.id))
        .innerJoin(hit, sql`hit.id = ${books.id}`)
        .orderBy(sql`hit.tier`, newestFirst(books.indexedBucket), ...byReadCount)
        .limit(limit)
        .offset(offset);
      return rows as SearchHit[];
    },

    /**
     * Books that may hold the keyword with one typo in their title or aliases: those of the title and alias lists
     * of its two-character grams (and, for three characters, of its first and last), most read first, at most
     * TYPO_CANDIDATES; the caller checks each.
     */
    async typoCandidates(grams: string[]) {
      const ids = sql`(select unnest(l.book_ids) from (
          select ${bookPostings.bookIds} as book_ids from ${bookPostings}
          where ${bookPostings.gram} in (select json_array_elements_text(${JSON.stringify(grams)}::json)) and ${bookPostings.tier} <= 2 and ${bookPostings.n} > 0
          order by ${bookPostings.bucket} desc limit ${TYPO_CANDIDATES}
        ) as l limit ${TYPO_CANDIDATES})`;
      const rows = await db
        .select({
          ...bookColumns,
          ...matchColumns,
          searchTitle: sql<string>`coalesce(${books.searchTitle}, search_fold(${books.title}))`,
          searchAliases: sql<string>`coalesce(${books.searchAliases}, '')`,
          indexedBucket: books.indexedBucket,
        })
        .from(books)
        .innerJoin(categories, eq(books.categoryId, categories.id))
        .where(and(published, sql`${books.id} in ${ids}`));
      return rows as (SearchHit & { searchTitle: string; searchAliases: string; indexedBucket: number })[];
    },

    async book(bookId: number) {
      const [row] = await selectBooks().where(and(eq(books.id, bookId), published));
      return row as Book | undefined;
    },

    async bookForReading(bookId: number) {
      const [row] = await db
        .select({
          title: books.title,
          vipFree: books.vipFree,
          picSplitCount: books.picSplitCount,
          chapterCount: books.chapterCount,
          published: books.published,
        })
        .from(books)
        .where(eq(books.id, bookId));
      return row;
    },

    async sameCategoryBooks(bookId: number, limit: number) {
      const rows = await selectBooks()
        .where(
          and(
            eq(
              books.categoryId,
              sql`(select ${books.categoryId} from ${books} where ${books.id} = ${bookId})`,
            ),
            ne(books.id, bookId),
            published,
          ),
        )
        .orderBy(...byReadCount)
        .limit(limit);
      return rows as Book[];
    },

    /**
     * The book's chapters in order, from one JSON value of five columns (chapter_list_json, migration 0006):
     * ready-made in chapter_lists for a book of 200 chapters or more, built here for a shorter one. A 2,000-chapter
     * book as 2,000 rows cost PGlite ~16 ms to hand over (it decodes a row field by field in JavaScript), built as
     * one value ~3 ms on either database, read ready-made ~1 ms (docs/decisions.md, "Search and lists at 100,000
     * books").
     */
    async chapterList(bookId: number): Promise<ChapterItem[]> {
      const [row] = rowsOf<{ columns: [number[], string[], string[], number[], number[]] | null }>(
        await db.execute(sql`select coalesce(
          (select ${chapterLists.list} from ${chapterLists} where ${chapterLists.bookId} = ${bookId}),
          chapter_list_json(${bookId})) as columns`),
      );
      if (!row?.columns) return [];
      const [numbers, titles, covers, prices, ids] = row.columns;
      return numbers.map((number, i) => ({
        bookId,
        number,
        title: titles[i] ?? '',
        cover: covers[i] ?? '',
        price: prices[i] ?? 0,
        chapterId: ids[i] ?? 0,
        // The caller marks what the reader owns: one object per chapter, not a copy (2,000 a long book).
        alreadyBuy: false,
      }));
    },

    async chapter(bookId: number, number: number) {
      const [row] = await db
        .select({ ...chapterColumns, pics: chapters.pics, content: chapters.content })
        .from(chapters)
        .where(and(eq(chapters.bookId, bookId), eq(chapters.number, number), chapterOut));
      return row;
    },

    /** Neighbour chapter numbers; chapter numbers need not be contiguous. */
    async neighbours(bookId: number, number: number) {
      const [row] = await db
        .select({
          previous: sql<number>`coalesce(max(${chapters.number}) filter (where ${chapters.number} < ${number}), 0)`,
          next: sql<number>`coalesce(min(${chapters.number}) filter (where ${chapters.number} > ${number}), 0)`,
        })
        .from(chapters)
        .where(and(eq(chapters.bookId, bookId), chapterOut));
      return { previous: Number(row?.previous ?? 0), next: Number(row?.next ?? 0) };
    },

    /**
     * True when some free chapter of a published book lists this page: its image is served without a grant
     * (chapters_pics index). Pages of an unpublished book need the grant its buyers get.
     */
    async isFreePage(path: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(chapters)
        .innerJoin(books, eq(books.id, chapters.bookId))
        .where(
          and(eq(chapters.price, 0), published, chapterOut, sql`${chapters.pics} @> array[${path}]::text[]`),
        )
        .limit(1);
      return row !== undefined;
    },

    /** True when the image is one the database knows (the demo drawer draws only those). */
    async isKnownImage(path: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(imageAssets)
        .where(eq(imageAssets.path, path))
        .limit(1);
      return row !== undefined;
    },

    async picSizes(paths: string[]) {
      if (paths.length === 0) return new Map<string, { width: number; height: number }>();
      const rows = await db.select().from(imageAssets).where(inArray(imageAssets.path, paths));
      return new Map(rows.map((r) => [r.path, { width: r.width, height: r.height }]));
    },

    async countRead(bookId: number) {
      await db
        .update(books)
        .set({ readCount: sql`${books.readCount} + 1` })
        .where(eq(books.id, bookId));
    },

    async ads() {
      return (
        db
          .select({
            jumpType: ads.jumpType,
            bizId: sql<number>`coalesce(${ads.bizId}, 0)`,
            url: ads.url,
            imgPath: ads.imgPath,
          })
          .from(ads)
          // Active, and inside its window if it has one (the home answer is kept a few seconds: close enough).
          .where(
            and(
              eq(ads.active, true),
              sql`(${ads.startsAt} is null or ${ads.startsAt} <= now())`,
              sql`(${ads.endsAt} is null or ${ads.endsAt} > now())`,
            ),
          )
          .orderBy(asc(ads.sort), asc(ads.id))
      );
    },

    async categories() {
      return db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .orderBy(asc(categories.sort), asc(categories.id));
    },

    async hotWords() {
      const rows = await db
        .select({ word: hotWords.word })
        .from(hotWords)
        .orderBy(asc(hotWords.sort), asc(hotWords.id));
      return rows.map((r) => r.word);
    },

    /**
     * The release calendar's rows for [from, to): chapters scheduled in it (published books), and the serialized
     * published books with a weekday schedule, each with its books' list columns.
     */
    async calendar(from: Date, to: Date, limit: number) {
      const scheduled = await db
        .select({
          bookId: chapters.bookId,
          number: chapters.number,
          title: chapters.title,
          publishAt: chapters.publishAt,
        })
        .from(chapters)
        .innerJoin(books, eq(books.id, chapters.bookId))
        .where(
          and(
            published,
            sql`${chapters.publishAt} >= ${from.toISOString()}::timestamptz`,
            sql`${chapters.publishAt} < ${to.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(asc(chapters.publishAt), asc(chapters.bookId), asc(chapters.number))
        .limit(limit);
      const weekly = await db
        .select({ bookId: books.id, releaseDays: books.releaseDays })
        .from(books)
        .where(
          and(published, eq(books.publishStatus, 'serialize'), sql`cardinality(${books.releaseDays}) > 0`),
        )
        .orderBy(sql`${books.readCount} desc`, asc(books.id))
        .limit(limit);
      const ids = [...new Set([...scheduled.map((c) => c.bookId), ...weekly.map((b) => b.bookId)])];
      const list = ids.length === 0 ? [] : ((await selectBooks().where(inArray(books.id, ids))) as Book[]);
      return { scheduled, weekly, books: new Map(list.map((b) => [b.bookId, b])) };
    },
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
