import type { ReadingProgress } from '@yueman/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';

// Where each reader stopped in each book, on the account (every reader has one, visitors too), so another device
// resumes at the same page. Last write wins by when the reader was there, not by when the write arrived: a phone
// that comes back online with an older position does not pull the reader back.

/** How many books the list call answers, newest first: more than a shelf or a history shows. */
const LIST_LIMIT = 200;

type Row = {
  book_id: number;
  chapter_number: number;
  page_number: number;
  page_offset: number;
  read_at: Date | string;
};

const fromRow = (r: Row): ReadingProgress => ({
  bookId: r.book_id,
  chapterNumber: r.chapter_number,
  pageNumber: r.page_number,
  pageOffset: Number(r.page_offset),
  readAt: new Date(r.read_at).getTime(),
});

export function createProgressRepository(db: Database) {
  return {
    /**
     * Saves unless a later position is kept; one statement, so two devices writing at once keep the later one. The
     * book must exist. Answers what the account holds afterwards, or undefined when the book does not exist.
     */
    async save(userId: number, p: ReadingProgress): Promise<ReadingProgress | undefined> {
      const readAt = new Date(p.readAt);
      const [saved] = rowsOf<Row>(
        await db.execute(sql`
        insert into reading_progress (user_id, book_id, chapter_number, page_number, page_offset, read_at)
        select ${userId}::integer, b.id, ${p.chapterNumber}::integer, ${p.pageNumber}::integer,
          ${p.pageOffset}::real, ${readAt.toISOString()}::timestamptz
        from books b where b.id = ${p.bookId}
        on conflict (user_id, book_id) do update set
          chapter_number = excluded.chapter_number, page_number = excluded.page_number,
          page_offset = excluded.page_offset, read_at = excluded.read_at
        where reading_progress.read_at < excluded.read_at
        returning book_id, chapter_number, page_number, page_offset, read_at`),
      );
      if (saved) return fromRow(saved);
      // Nothing written: a later position is kept (answered), or the book does not exist.
      return (await this.list(userId, p.bookId))[0];
    },

    async list(userId: number, bookId?: number): Promise<ReadingProgress[]> {
      const rows = rowsOf<Row>(
        await db.execute(sql`
          select book_id, chapter_number, page_number, page_offset, read_at from reading_progress
          where user_id = ${userId} ${bookId === undefined ? sql`` : sql`and book_id = ${bookId}`}
          order by read_at desc limit ${LIST_LIMIT}`),
      );
      return rows.map(fromRow);
    },
  };
}
export type ProgressRepository = ReturnType<typeof createProgressRepository>;
