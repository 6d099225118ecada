import type { Book, ChapterItem, ShowcaseType } from '@yueman/contract';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  ads,
  books,
  categories,
  chapters,
  hotWords,
  imageAssets,
  showcaseEntries,
} from '../../db/schema/index.ts';

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

/** `%` and `_` in a reader's keyword are literal characters, not wildcards. */
const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createCatalogRepository(db: Database) {
  const selectBooks = () =>
    db.select(bookColumns).from(books).innerJoin(categories, eq(books.categoryId, categories.id));

  async function pageOfBooks(where: SQL | undefined, order: SQL[], limit: number, offset: number) {
    const [rows, [total]] = await Promise.all([
      selectBooks()
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(books).where(where),
    ]);
    return { rows: rows as Book[], total: total?.n ?? 0 };
  }

  return {
    filteredBooks(filter: BookFilter, limit: number, offset: number) {
      const where = and(
        filter.publishStatus ? eq(books.publishStatus, filter.publishStatus) : undefined,
        filter.categoryId ? eq(books.categoryId, filter.categoryId) : undefined,
      );
      return pageOfBooks(where, [desc(books.readCount), asc(books.id)], limit, offset);
    },

    recentlyUpdated(limit: number, offset: number) {
      return pageOfBooks(undefined, [desc(books.updatedAt), asc(books.id)], limit, offset);
    },

    async showcase(type: ShowcaseType, limit: number, offset: number) {
      const where = eq(showcaseEntries.type, type);
      const [rows, [total]] = await Promise.all([
        selectBooks()
          .innerJoin(showcaseEntries, eq(showcaseEntries.bookId, books.id))
          .where(where)
          .orderBy(asc(showcaseEntries.sort), asc(books.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(showcaseEntries).where(where),
      ]);
      return { rows: rows as Book[], total: total?.n ?? 0 };
    },

    searchBooks(keyword: string, limit: number, offset: number) {
      const pattern = likePattern(keyword);
      return pageOfBooks(
        or(ilike(books.title, pattern), ilike(books.author, pattern)),
        [desc(books.readCount), asc(books.id)],
        limit,
        offset,
      );
    },

    async book(bookId: number) {
      const [row] = await selectBooks().where(eq(books.id, bookId));
      return row as Book | undefined;
    },

    async bookForReading(bookId: number) {
      const [row] = await db
        .select({
          title: books.title,
          vipFree: books.vipFree,
          picSplitCount: books.picSplitCount,
          chapterCount: books.chapterCount,
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
          ),
        )
        .orderBy(desc(books.readCount), asc(books.id))
        .limit(limit);
      return rows as Book[];
    },

    async chapterList(bookId: number): Promise<Omit<ChapterItem, 'alreadyBuy'>[]> {
      return db
        .select(chapterColumns)
        .from(chapters)
        .where(eq(chapters.bookId, bookId))
        .orderBy(asc(chapters.number));
    },

    async chapter(bookId: number, number: number) {
      const [row] = await db
        .select({ ...chapterColumns, pics: chapters.pics, content: chapters.content })
        .from(chapters)
        .where(and(eq(chapters.bookId, bookId), eq(chapters.number, number)));
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
        .where(eq(chapters.bookId, bookId));
      return { previous: Number(row?.previous ?? 0), next: Number(row?.next ?? 0) };
    },

    /** True when some free chapter lists this page: its image is served without a grant (chapters_pics index). */
    async isFreePage(path: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(chapters)
        .where(and(eq(chapters.price, 0), sql`${chapters.pics} @> array[${path}]::text[]`))
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
      return db
        .select({
          jumpType: ads.jumpType,
          bizId: sql<number>`coalesce(${ads.bizId}, 0)`,
          url: ads.url,
          imgPath: ads.imgPath,
        })
        .from(ads)
        .where(eq(ads.active, true))
        .orderBy(asc(ads.sort), asc(ads.id));
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
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
