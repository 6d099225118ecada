import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { branchSettings, contacts, reports } from '../../db/schema/index.ts';
import { one } from '../../shared/rows.ts';

export function createSupportRepository(db: Database) {
  return {
    async settingsFor(branchIds: number[]) {
      return db.select().from(branchSettings).where(inArray(branchSettings.branchId, branchIds));
    },
    async insertContact(row: typeof contacts.$inferInsert) {
      return one(await db.insert(contacts).values(row).returning({ id: contacts.id }));
    },
    async insertReport(row: typeof reports.$inferInsert) {
      return one(await db.insert(reports).values(row).returning({ id: reports.id }));
    },
    async report(id: number) {
      const [row] = await db.select().from(reports).where(eq(reports.id, id));
      return row;
    },
  };
}

export type SupportRepository = ReturnType<typeof createSupportRepository>;
