import { desc, eq } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { branchSettings, reports } from '../../db/schema/index.ts';

export type BranchSettings = typeof branchSettings.$inferInsert;

/** The branches' settings and the readers' complaints as the console reads and writes them. */
export function createSupportConsoleRepository(db: Database) {
  return {
    transaction: db.transaction.bind(db),

    branches: () => db.select().from(branchSettings).orderBy(branchSettings.branchId),

    /** A branch's settings, locked for a change; undefined when never set. */
    async lockBranch(q: Queryable, branchId: number) {
      const [row] = await q
        .select()
        .from(branchSettings)
        .where(eq(branchSettings.branchId, branchId))
        .for('update');
      return row;
    },

    /** Sets a branch's settings (the fields given; the others kept, or their defaults for a new branch). */
    async saveBranch(q: Queryable, branchId: number, fields: Omit<BranchSettings, 'branchId'>) {
      const [row] = await q
        .insert(branchSettings)
        .values({ branchId, ...fields })
        .onConflictDoUpdate({ target: branchSettings.branchId, set: fields })
        .returning();
      return row as typeof branchSettings.$inferSelect;
    },

    /** A page of complaints, newest first, and how many there are. */
    async complaints(window: { offset: number; limit: number }) {
      const rows = await db
        .select()
        .from(reports)
        .orderBy(desc(reports.id))
        .offset(window.offset)
        .limit(window.limit);
      return { rows, total: (await db.$count(reports)) as number };
    },
  };
}

export type SupportConsoleRepository = ReturnType<typeof createSupportConsoleRepository>;
