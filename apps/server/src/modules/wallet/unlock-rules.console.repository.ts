import { eq } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { books, bookUnlockRules } from '../../db/schema/index.ts';

export type UnlockRulesRow = typeof bookUnlockRules.$inferSelect;
export type UnlockRulesValues = Omit<UnlockRulesRow, 'bookId' | 'updatedAt'>;

/** A book's unlock rules as the console reads and sets them (book_unlock_rules, one row per book or none). */
export function createUnlockRulesConsoleRepository(db: Database) {
  return {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),

    /** The book's chapter count, under its row's lock when `lock` (two saves of one book queue); undefined: none. */
    async book(bookId: number, q: Queryable = db, lock = false) {
      const query = q.select({ chapterCount: books.chapterCount }).from(books).where(eq(books.id, bookId));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async rules(bookId: number, q: Queryable = db) {
      const [row] = await q.select().from(bookUnlockRules).where(eq(bookUnlockRules.bookId, bookId));
      return row;
    },

    async save(tx: Queryable, bookId: number, values: UnlockRulesValues) {
      const [row] = await tx
        .insert(bookUnlockRules)
        .values({ bookId, ...values })
        .onConflictDoUpdate({ target: bookUnlockRules.bookId, set: { ...values, updatedAt: new Date() } })
        .returning();
      if (!row) throw new Error('the unlock rules were not saved');
      return row;
    },
  };
}

export type UnlockRulesConsoleRepository = ReturnType<typeof createUnlockRulesConsoleRepository>;
