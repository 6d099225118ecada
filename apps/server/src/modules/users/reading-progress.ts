import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type ReadingProgress, routes } from '@yueman/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { notFound } from '../../shared/errors.ts';
import { rowsOf } from '../../shared/rows.ts';
import { requireSession, signedIn } from '../../shared/signed-in.ts';

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

export async function readingProgressRoutes(app: FastifyInstance, db: Database) {
  const repo = createProgressRepository(db);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const sessionFirst = { preValidation: [requireSession] };

  r.route({
    // A reader scrolling saves every few seconds at most (the web app throttles); this bounds a script.
    ...contractRoute(routes.saveProgress, {
      ...sessionFirst,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    }),
    handler: async (req) => {
      const { userId } = signedIn(req);
      // A device clock ahead of ours would win every later write: never later than now.
      const readAt = Math.min(req.body.readAt, Date.now());
      const kept = await repo.save(userId, { ...req.body, readAt });
      if (!kept) throw notFound('书籍不存在');
      return ok(kept);
    },
  });

  r.route({
    ...contractRoute(routes.readingProgress, sessionFirst),
    handler: async (req) => ok(await repo.list(signedIn(req).userId, req.query.bookId)),
  });
}
