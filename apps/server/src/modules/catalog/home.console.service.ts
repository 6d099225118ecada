import { ShowcaseType } from '@yueman/contract';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { books, hotWords, showcaseEntries } from '../../db/schema/index.ts';
import { badRequest } from '../../shared/errors.ts';
import type { ConsoleDeps, Editor } from './books.console.service.ts';

/** The home page's sections (the spec's showcase types), in the order the console shows them. */
export const SHOWCASE_TYPES = ShowcaseType.anyOf.map((t) => t.const) as ShowcaseType[];
export const MAX_SECTION_BOOKS = 100;
export const MAX_HOT_WORDS = 30;

const duplicates = <T>(items: T[]) => items.length !== new Set(items).size;

/** The home page as operators arrange it: the books of each section in order, and the hot words. */
export function createHomeConsole(db: Database, deps: Pick<ConsoleDeps, 'audit' | 'changed'>) {
  const section = (type: ShowcaseType, q: Pick<Database, 'select'> = db) =>
    q
      .select({ bookId: showcaseEntries.bookId, title: books.title })
      .from(showcaseEntries)
      .innerJoin(books, eq(books.id, showcaseEntries.bookId))
      .where(eq(showcaseEntries.type, type))
      .orderBy(asc(showcaseEntries.sort), asc(showcaseEntries.bookId));

  const words = (q: Pick<Database, 'select'> = db) =>
    q.select({ word: hotWords.word }).from(hotWords).orderBy(asc(hotWords.sort), asc(hotWords.id));

  return {
    async sections() {
      const all = await Promise.all(
        SHOWCASE_TYPES.map(async (type) => ({ type, books: await section(type) })),
      );
      return all;
    },

    /** Replaces a section's books with `bookIds`, in that order (the console's drag order). */
    async arrangeSection(input: { type: ShowcaseType; bookIds: number[]; editor: Editor }) {
      if (duplicates(input.bookIds)) throw badRequest('同一本书只能出现一次', 'bookIds');
      const saved = await db.transaction(async (tx) => {
        const found = input.bookIds.length
          ? await tx.select({ id: books.id }).from(books).where(inArray(books.id, input.bookIds))
          : [];
        if (found.length !== input.bookIds.length) throw badRequest('有书籍不存在', 'bookIds');
        // The section's rows are replaced under the section's own lock: two operators saving at once queue.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`showcase:${input.type}`}))`);
        const before = await section(input.type, tx);
        await tx.delete(showcaseEntries).where(eq(showcaseEntries.type, input.type));
        if (input.bookIds.length > 0) {
          await tx
            .insert(showcaseEntries)
            .values(input.bookIds.map((bookId, sort) => ({ type: input.type, bookId, sort: sort + 1 })));
        }
        const after = await section(input.type, tx);
        await deps.audit(tx, {
          ...input.editor,
          action: 'home.section',
          target: `showcase:${input.type}`,
          before: before.map((b) => b.bookId),
          after: after.map((b) => b.bookId),
        });
        return after;
      });
      deps.changed();
      return { type: input.type, books: saved };
    },

    hotWords: async () => (await words()).map((w) => w.word),

    /** Replaces the hot words with `list`, in that order. */
    async setHotWords(input: { list: string[]; editor: Editor }) {
      const list = input.list.map((w) => w.trim());
      if (list.some((w) => w === '')) throw badRequest('热词不能为空', 'words');
      if (duplicates(list)) throw badRequest('热词不能重复', 'words');
      const saved = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('hot_words'))`);
        const before = (await words(tx)).map((w) => w.word);
        await tx.delete(hotWords);
        if (list.length > 0)
          await tx.insert(hotWords).values(list.map((word, sort) => ({ word, sort: sort + 1 })));
        await deps.audit(tx, {
          ...input.editor,
          action: 'home.hot_words',
          target: 'hot_words',
          before,
          after: list,
        });
        return list;
      });
      deps.changed();
      return saved;
    },
  };
}

export type HomeConsole = ReturnType<typeof createHomeConsole>;
