import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import {
  books,
  branchSettings,
  type ComplaintState,
  chapters,
  operators,
  reportNotes,
  reports,
} from '../../db/schema/index.ts';

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

    /** A page of complaints (of one state, or all), newest first, and how many there are. */
    async complaints(window: { offset: number; limit: number; state?: ComplaintState }) {
      const where = window.state ? eq(reports.state, window.state) : undefined;
      const rows = await complaintQuery(db, where)
        .orderBy(desc(reports.id))
        .offset(window.offset)
        .limit(window.limit);
      return { rows, total: (await db.$count(reports, where)) as number };
    },

    /** One complaint with its book, chapter and handler; undefined when none. */
    async complaint(id: number, q: Queryable = db) {
      const [row] = await complaintQuery(q, eq(reports.id, id));
      return row;
    },

    /**
     * A complaint's handling, locked for a change (two operators taking it at once: the second waits, then sees the
     * first's). The handler's name is read after the lock: a join in the locking statement would keep the name from
     * before the wait.
     */
    async lockComplaint(q: Queryable, id: number) {
      const [row] = await q
        .select({
          id: reports.id,
          state: reports.state,
          handlerId: reports.handlerId,
          stateAt: reports.stateAt,
        })
        .from(reports)
        .where(eq(reports.id, id))
        .for('update');
      if (!row) return undefined;
      const [handler] =
        row.handlerId === null
          ? []
          : await q.select({ name: operators.name }).from(operators).where(eq(operators.id, row.handlerId));
      return { ...row, handler: handler?.name ?? null };
    },

    async setComplaintState(
      q: Queryable,
      id: number,
      fields: { state: ComplaintState; handlerId: number | null; stateAt: Date },
    ) {
      await q.update(reports).set(fields).where(eq(reports.id, id));
    },

    async addNote(q: Queryable, row: typeof reportNotes.$inferInsert) {
      const [note] = await q.insert(reportNotes).values(row).returning();
      return note as typeof reportNotes.$inferSelect;
    },

    /** A complaint's notes, oldest first. */
    notes: (reportId: number, q: Queryable = db) =>
      q
        .select({
          id: reportNotes.id,
          operator: reportNotes.operatorName,
          kind: reportNotes.kind,
          text: reportNotes.text,
          createdAt: reportNotes.createdAt,
        })
        .from(reportNotes)
        .where(eq(reportNotes.reportId, reportId))
        .orderBy(asc(reportNotes.id)),
  };
}

export type SupportConsoleRepository = ReturnType<typeof createSupportConsoleRepository>;

/** Complaints as the console shows them: the reported book and chapter as they are now, the handler, the notes' count. */
function complaintQuery(q: Queryable, where: SQL | undefined) {
  return q
    .select({
      id: reports.id,
      userId: reports.userId,
      visitorId: reports.visitorId,
      reason: reports.reason,
      content: reports.content,
      contact: reports.contact,
      pageUrl: reports.pageUrl,
      bookId: reports.bookId,
      bookTitle: books.title,
      bookPublished: books.published,
      chapterNumber: reports.chapterNumber,
      chapterPublishAt: chapters.publishAt,
      pageNumber: reports.pageNumber,
      createdAt: reports.createdAt,
      state: reports.state,
      handler: operators.name,
      stateAt: reports.stateAt,
      notes: sql<number>`(select count(*) from ${reportNotes} where ${reportNotes.reportId} = ${reports.id})::integer`,
    })
    .from(reports)
    .leftJoin(books, eq(books.id, reports.bookId))
    .leftJoin(chapters, and(eq(chapters.bookId, reports.bookId), eq(chapters.number, reports.chapterNumber)))
    .leftJoin(operators, eq(operators.id, reports.handlerId))
    .where(where)
    .$dynamic();
}
