import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { books, bookUnlockRules } from '../../db/schema/index.ts';

export type UnlockRulesRow = typeof bookUnlockRules.$inferSelect;
export type UnlockRulesValues = Omit<UnlockRulesRow, 'bookId' | 'branchId' | 'updatedAt'>;

/** The row of one (book, branch): branchId null is the book's default rules. */
const rowOf = (bookId: number, branchId: number | null) =>
  and(
    eq(bookUnlockRules.bookId, bookId),
    branchId === null ? isNull(bookUnlockRules.branchId) : eq(bookUnlockRules.branchId, branchId),
  );

/**
 * A book's unlock rules as the console reads and sets them (book_unlock_rules: the default row and one row per
 * promotion branch with a variant, or none). Writes run under the book's row lock (see `book`), so a save is a
 * plain update-or-insert.
 */
export function createUnlockRulesConsoleRepository(db: Database) {
  return {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),

    /** The book's chapter count, under its row's lock when `lock` (two saves of one book queue); undefined: none. */
    async book(bookId: number, q: Queryable = db, lock = false) {
      const query = q.select({ chapterCount: books.chapterCount }).from(books).where(eq(books.id, bookId));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async rules(bookId: number, branchId: number | null, q: Queryable = db) {
      const [row] = await q.select().from(bookUnlockRules).where(rowOf(bookId, branchId));
      return row;
    },

    /** The promotion branches with a variant of the book's rules, in order. */
    async branches(bookId: number, q: Queryable = db) {
      const rows = await q
        .select({ branchId: bookUnlockRules.branchId })
        .from(bookUnlockRules)
        .where(and(eq(bookUnlockRules.bookId, bookId), isNotNull(bookUnlockRules.branchId)))
        .orderBy(asc(bookUnlockRules.branchId));
      return rows.map((r) => r.branchId as number);
    },

    async save(tx: Queryable, bookId: number, branchId: number | null, values: UnlockRulesValues) {
      const [updated] = await tx
        .update(bookUnlockRules)
        .set({ ...values, updatedAt: new Date() })
        .where(rowOf(bookId, branchId))
        .returning();
      if (updated) return updated;
      const [row] = await tx
        .insert(bookUnlockRules)
        .values({ bookId, branchId, ...values })
        .returning();
      if (!row) throw new Error('the unlock rules were not saved');
      return row;
    },

    /** Deletes a branch's variant; the row deleted, or undefined when there was none. */
    async remove(tx: Queryable, bookId: number, branchId: number) {
      const [row] = await tx.delete(bookUnlockRules).where(rowOf(bookId, branchId)).returning();
      return row;
    },
  };
}

export type UnlockRulesConsoleRepository = ReturnType<typeof createUnlockRulesConsoleRepository>;
