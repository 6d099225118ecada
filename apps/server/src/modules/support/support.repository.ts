import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { branchSettings, contacts, reports } from '../../db/schema/index.ts';
import { one, rowsOf } from '../../shared/rows.ts';

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
    /**
     * A complaint about one page (举报此页), kept only when that page is one a reader can see: a published chapter of
     * the book with at least that many pages. Checked and inserted in one statement; undefined when not.
     */
    async insertPageReport(
      row: typeof reports.$inferInsert & { bookId: number; chapterNumber: number; pageNumber: number },
    ) {
      const [created] = rowsOf<{ id: number }>(
        await db.execute(sql`
          insert into reports
            (user_id, visitor_id, reason, content, contact, page_url, book_id, chapter_number, page_number)
          select ${row.userId ?? null}::integer, ${row.visitorId ?? ''}, ${row.reason}, ${row.content ?? ''},
            ${row.contact ?? ''}, ${row.pageUrl ?? ''}, c.book_id, c.number, ${row.pageNumber}::integer
          from chapters c
          where c.book_id = ${row.bookId} and c.number = ${row.chapterNumber} and c.publish_at is null
            and cardinality(c.pics) >= ${row.pageNumber}
          returning id`),
      );
      return created;
    },
    async report(id: number) {
      const [row] = await db.select().from(reports).where(eq(reports.id, id));
      return row;
    },
  };
}

export type SupportRepository = ReturnType<typeof createSupportRepository>;
