import type { ShowcaseType } from '@yueman/contract';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { books, hotWords, showcaseEntries } from '../../db/schema/index.ts';

/** The home page's sections and hot words as the console reads and writes them. */
export function createHomeConsoleRepository(db: Database) {
  return {
    transaction: db.transaction.bind(db),

    /** A section's books in order. */
    section: (type: ShowcaseType, q: Queryable = db) =>
      q
        .select({ bookId: showcaseEntries.bookId, title: books.title })
        .from(showcaseEntries)
        .innerJoin(books, eq(books.id, showcaseEntries.bookId))
        .where(eq(showcaseEntries.type, type))
        .orderBy(asc(showcaseEntries.sort), asc(showcaseEntries.bookId)),

    /** How many of these books exist. */
    async existingBooks(q: Queryable, ids: number[]) {
      if (ids.length === 0) return 0;
      return (await q.select({ id: books.id }).from(books).where(inArray(books.id, ids))).length;
    },

    /** Replaces a section's books, under the section's own lock: two operators saving at once queue. */
    async replaceSection(q: Queryable, type: ShowcaseType, bookIds: number[]) {
      await q.delete(showcaseEntries).where(eq(showcaseEntries.type, type));
      if (bookIds.length > 0)
        await q
          .insert(showcaseEntries)
          .values(bookIds.map((bookId, sort) => ({ type, bookId, sort: sort + 1 })));
    },

    lockSection: (q: Queryable, type: ShowcaseType) =>
      q.execute(sql`select pg_advisory_xact_lock(hashtext(${`showcase:${type}`}))`),

    words: async (q: Queryable = db) =>
      (
        await q.select({ word: hotWords.word }).from(hotWords).orderBy(asc(hotWords.sort), asc(hotWords.id))
      ).map((w) => w.word),

    lockWords: (q: Queryable) => q.execute(sql`select pg_advisory_xact_lock(hashtext('hot_words'))`),

    async replaceWords(q: Queryable, list: string[]) {
      await q.delete(hotWords);
      if (list.length > 0)
        await q.insert(hotWords).values(list.map((word, sort) => ({ word, sort: sort + 1 })));
    },
  };
}

export type HomeConsoleRepository = ReturnType<typeof createHomeConsoleRepository>;
