import { and, asc, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import {
  books,
  categories,
  chapterPurchases,
  chapters,
  imageAssets,
  ledgerTransfers,
} from '../../db/schema/index.ts';

export type BookRow = typeof books.$inferSelect;

/** `%`, `_` and `\` in an operator's search words are literal characters. */
const likePattern = (words: string) => `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The catalogue as the console reads and writes it (the readers' queries stay in catalog.repository.ts). */
export function createConsoleRepository(db: Database) {
  return {
    transaction: db.transaction.bind(db),

    /** A page of books, newest change first, with the filters the console's table offers. */
    async listBooks(filter: {
      q?: string;
      categoryId?: number;
      status?: string;
      offset: number;
      limit: number;
    }) {
      const where: SQL[] = [];
      if (filter.q) {
        const pattern = likePattern(filter.q);
        where.push(or(ilike(books.title, pattern), ilike(books.author, pattern)) as SQL);
      }
      if (filter.categoryId !== undefined) where.push(eq(books.categoryId, filter.categoryId));
      if (filter.status !== undefined) where.push(eq(books.publishStatus, filter.status));
      const condition = where.length > 0 ? and(...where) : undefined;
      const rows = await db
        .select({
          id: books.id,
          title: books.title,
          author: books.author,
          cover: books.cover,
          categoryId: books.categoryId,
          category: categories.name,
          publishStatus: books.publishStatus,
          vipFree: books.vipFree,
          published: books.published,
          chapterCount: books.chapterCount,
          readCount: books.readCount,
          updatedAt: books.updatedAt,
        })
        .from(books)
        .innerJoin(categories, eq(categories.id, books.categoryId))
        .where(condition)
        .orderBy(desc(books.updatedAt), desc(books.id))
        .offset(filter.offset)
        .limit(filter.limit);
      const total = await db.$count(books, condition);
      return { rows, total };
    },

    async book(id: number, q: Queryable = db, lock = false) {
      const query = q.select().from(books).where(eq(books.id, id));
      const [row] = await (lock ? query.for('update') : query);
      return row;
    },

    /** An uploaded picture's size, known to the image host (kept if the path is already known). */
    addImage: (q: Queryable, image: { path: string; width: number; height: number }) =>
      q.insert(imageAssets).values(image).onConflictDoNothing(),

    categories: () => db.select().from(categories).orderBy(asc(categories.sort), asc(categories.id)),

    categoryExists: async (id: number, q: Queryable) =>
      (await q.select({ id: categories.id }).from(categories).where(eq(categories.id, id))).length > 0,

    async updateBook(q: Queryable, id: number, changes: Partial<BookRow>) {
      const [row] = await q
        .update(books)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(books.id, id))
        .returning();
      return row as BookRow;
    },

    /** A book's chapters in order, with their page counts (not the page paths) and how many readers own each. */
    chapters: (bookId: number, q: Queryable = db) =>
      q
        .select({
          id: chapters.id,
          number: chapters.number,
          title: chapters.title,
          price: chapters.price,
          pages: sql<number>`cardinality(${chapters.pics})`.mapWith(Number),
          publishAt: chapters.publishAt,
          createdAt: chapters.createdAt,
          // Readers who own it (bought, or given it): a price change is asked about when there are any.
          buyers:
            sql<number>`(select count(*) from ${chapterPurchases} where ${chapterPurchases.chapterId} = ${chapters.id})`.mapWith(
              Number,
            ),
        })
        .from(chapters)
        .where(eq(chapters.bookId, bookId))
        .orderBy(asc(chapters.number)),

    /** Locks a book's chapters, or one of them (a change reads them, then writes them). */
    lockChapters: (q: Queryable, bookId: number, number?: number) =>
      q
        .select({
          number: chapters.number,
          price: chapters.price,
          title: chapters.title,
          publishAt: chapters.publishAt,
        })
        .from(chapters)
        .where(
          and(eq(chapters.bookId, bookId), number === undefined ? undefined : eq(chapters.number, number)),
        )
        .orderBy(asc(chapters.number))
        .for('update'),

    /** True when a reader bought (or was given) a chapter of the book, or coins moved for one. */
    async bookHasBuyers(q: Queryable, bookId: number) {
      const ofBook = q.select({ id: chapters.id }).from(chapters).where(eq(chapters.bookId, bookId));
      const [bought] = await q
        .select({ one: sql<number>`1` })
        .from(chapterPurchases)
        .where(inArray(chapterPurchases.chapterId, ofBook))
        .limit(1);
      if (bought) return true;
      const [spent] = await q
        .select({ one: sql<number>`1` })
        .from(ledgerTransfers)
        .where(inArray(ledgerTransfers.chapterId, ofBook))
        .limit(1);
      return spent !== undefined;
    },

    /** The book and everything of it that cascades (chapters, lists, showcase entries, reading places). */
    deleteBook: (q: Queryable, bookId: number) => q.delete(books).where(eq(books.id, bookId)),

    /** First `freeChapters` chapters free, the rest at `price`: one statement. */
    priceBook: (q: Queryable, bookId: number, freeChapters: number, price: number) =>
      q
        .update(chapters)
        .set({ price: sql`case when ${chapters.number} <= ${freeChapters} then 0 else ${price}::int end` })
        .where(eq(chapters.bookId, bookId)),

    async updateChapter(
      q: Queryable,
      bookId: number,
      number: number,
      changes: { title?: string; price?: number; publishAt?: Date | null },
    ) {
      const [row] = await q
        .update(chapters)
        .set(changes)
        .where(and(eq(chapters.bookId, bookId), eq(chapters.number, number)))
        .returning({
          number: chapters.number,
          title: chapters.title,
          price: chapters.price,
          publishAt: chapters.publishAt,
        });
      return row;
    },
  };
}

export type ConsoleRepository = ReturnType<typeof createConsoleRepository>;
