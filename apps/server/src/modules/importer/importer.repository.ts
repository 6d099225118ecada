import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { books, categories, chapters, imageAssets } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';
import { insertPinyinKeys, searchKeysOf } from '../catalog/index.ts';

export type BookRow = typeof books.$inferSelect;
type ChapterRow = Pick<typeof chapters.$inferInsert, 'title' | 'cover' | 'price' | 'pics' | 'contentHash'>;

/** Every query of an import: the book it goes into, and each chapter written whole in one transaction. */
export function createImporterRepository(db: Database) {
  return {
    async bookById(id: number): Promise<BookRow | undefined> {
      const [found] = await db.select().from(books).where(eq(books.id, id));
      return found;
    },

    async bookByTitle(title: string): Promise<BookRow | undefined> {
      const [same] = await db.select().from(books).where(eq(books.title, title)).limit(1);
      return same;
    },

    /** A new book's id, taken from the books' sequence; the book is written later, with its first chapter. */
    async nextBookId(): Promise<number> {
      const [next] = rowsOf<{ id: number }>(
        await db.execute(sql`select nextval(pg_get_serial_sequence('books', 'id'))::int as id`),
      );
      return Number(next?.id);
    },

    /** The content hash of a book's chapter of this number, or undefined when there is none. */
    async chapterHash(bookId: number, number: number): Promise<{ hash: string | null } | undefined> {
      const [existing] = await db
        .select({ hash: chapters.contentHash })
        .from(chapters)
        .where(and(eq(chapters.bookId, bookId), eq(chapters.number, number)));
      return existing;
    },

    /**
     * One chapter, in one transaction with its pages' sizes, its book's chapter count and update time: the new book
     * first (and its category when new) when `newBook`; the book's cover, and its chapters written without one, when
     * `newCover`.
     */
    async writeChapter(input: {
      newBook?: { book: BookRow; category: string };
      pages: { path: string; width: number; height: number }[];
      bookId: number;
      number: number;
      /** A chapter of this number exists: it is replaced. */
      replace: boolean;
      row: ChapterRow;
      newCover?: string;
    }) {
      const { bookId, number, row, newCover } = input;
      await db.transaction(async (tx) => {
        if (input.newBook) {
          const { book, category: categoryName } = input.newBook;
          await tx.insert(categories).values({ name: categoryName }).onConflictDoNothing();
          const [category] = await tx.select().from(categories).where(eq(categories.name, categoryName));
          // With its search keys, computed as it is written: searchable as its first chapter is (docs/decisions.md,
          // "Search the way readers type").
          const keys = searchKeysOf(book);
          await tx.insert(books).values({
            id: book.id,
            title: book.title,
            author: book.author,
            aliases: book.aliases,
            abstractContent: book.abstractContent,
            categoryId: (category as { id: number }).id,
            publishStatus: book.publishStatus,
            vipFree: book.vipFree,
            cover: row.cover,
            horiCover: row.cover,
            searchTitle: keys.searchTitle,
            searchAuthor: keys.searchAuthor,
            searchAliases: keys.searchAliases,
            searchPinyin: keys.searchPinyin,
          });
          await insertPinyinKeys(
            tx,
            keys.pinyinKeys.map((k) => ({ id: book.id, ...k })),
          );
        }
        await tx.insert(imageAssets).values(input.pages).onConflictDoNothing();
        if (input.replace) {
          await tx
            .update(chapters)
            .set(row)
            .where(and(eq(chapters.bookId, bookId), eq(chapters.number, number)));
        } else {
          await tx.insert(chapters).values({ ...row, bookId, number });
        }
        await tx
          .update(books)
          .set({
            chapterCount: sql`(select count(*) from ${chapters} where ${chapters.bookId} = ${bookId} and ${chapters.publishAt} is null)`,
            updatedAt: sql`now()`,
            ...(newCover === undefined ? {} : { cover: newCover, horiCover: newCover }),
          })
          .where(eq(books.id, bookId));
        // Chapters that were written without a cover (none could be had then) get the one found now.
        if (newCover) {
          await tx
            .update(chapters)
            .set({ cover: newCover })
            .where(and(eq(chapters.bookId, bookId), eq(chapters.cover, '')));
        }
      });
    },
  };
}
export type ImporterRepository = ReturnType<typeof createImporterRepository>;
