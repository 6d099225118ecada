import { and, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client.ts';
import { books, chapters } from '../../db/schema/index.ts';
import { backgroundLoop } from '../../shared/background-loop.ts';

/** How often due chapters are let out: a chapter scheduled for 20:00 is out by 20:00:30 (plus the 5 s caches). */
const EVERY_MS = 30_000;

/**
 * Counts a book's chapters that are out into books.chapter_count; `updated`: the book moves to the top of the
 * daily-update list (a chapter just came out).
 */
export function recountChapters(q: Queryable, bookIds: number[], updated: boolean) {
  return q
    .update(books)
    .set({
      chapterCount: sql`(select count(*) from ${chapters} where ${chapters.bookId} = ${books.id} and ${chapters.publishAt} is null)`,
      ...(updated ? { updatedAt: sql`now()` } : {}),
    })
    .where(inArray(books.id, bookIds));
}

/**
 * Scheduled chapters: a job (once across servers, by its advisory lock) lets out every chapter whose time has come,
 * in one transaction with its book's count and update time, then drops this server's kept answers (`changed`).
 */
export function createScheduledChapters(db: Database, opts: { changed(): void; log: FastifyBaseLogger }) {
  const publishDue = async (now = new Date()) => {
    const due = await db.transaction(async (tx) => {
      const out = await tx
        .update(chapters)
        .set({ publishAt: null })
        .where(and(isNotNull(chapters.publishAt), lte(chapters.publishAt, now)))
        .returning({ bookId: chapters.bookId });
      const bookIds = [...new Set(out.map((c) => c.bookId))];
      if (bookIds.length > 0) await recountChapters(tx, bookIds, true);
      return out.length;
    });
    if (due > 0) {
      opts.changed();
      opts.log.info({ chapters: due }, 'scheduled chapters are out');
    }
    return due;
  };
  const loop = backgroundLoop({
    name: 'scheduled-chapters',
    intervalMs: EVERY_MS,
    run: async () => (await publishDue()) < 0,
    log: opts.log,
  });
  return { publishDue, loop };
}
