import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { books, readingTickets, users } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

/** The most tickets one grant makes. */
export const MAX_TICKETS_PER_GRANT = 100;

export interface TicketRowsToGrant {
  userId: number;
  /** `tickets:{userId}:{requestId}`; each ticket's grant id is this and its number from 1. */
  grantPrefix: string;
  kind: 'read' | 'presale';
  count: number;
  rentalHours: number | null;
  scope: number[] | null;
  reason: string;
  expiresAt: Date;
}

/**
 * The reading tickets an operator grants (reading_tickets rows with source `grant`, one per ticket, each under a
 * deterministic grant id, so a request granted twice collides on the unique grant id), and the reader page's list.
 */
export function createTicketsConsoleRepository(db: Database) {
  const usableNow = (userId: number) =>
    and(
      eq(readingTickets.userId, userId),
      sql`${readingTickets.spentAt} is null and ${readingTickets.expiresAt} > now()`,
    );
  return {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),

    /** Whether the reader exists; under their row's lock when `lock` (grants to one reader queue). */
    async readerExists(userId: number, q: Queryable = db, lock = false) {
      const query = q.select({ id: users.id }).from(users).where(eq(users.id, userId));
      const [row] = lock ? await query.for('update') : await query;
      return row !== undefined;
    },

    /** The books of `ids` that exist, with their titles. */
    async booksOf(ids: number[], q: Queryable = db) {
      if (ids.length === 0) return [];
      return q.select({ bookId: books.id, title: books.title }).from(books).where(inArray(books.id, ids));
    },

    /**
     * What an earlier grant of this request made: its tickets' kind and how many; undefined when none. A request
     * grants at most MAX_TICKETS_PER_GRANT tickets, so its grant ids are a short list the unique index finds.
     */
    async earlierGrant(tx: Queryable, grantPrefix: string) {
      const ids = Array.from({ length: MAX_TICKETS_PER_GRANT }, (_, i) => `${grantPrefix}:${i + 1}`);
      const [row] = await tx
        .select({
          kind: readingTickets.kind,
          count: count(),
          expiresAt: sql<string>`max(${readingTickets.expiresAt})`,
        })
        .from(readingTickets)
        .where(inArray(readingTickets.grantId, ids))
        .groupBy(readingTickets.kind);
      return row && { ...row, expiresAt: new Date(row.expiresAt) };
    },

    async grant(tx: Queryable, g: TicketRowsToGrant) {
      const rows = Array.from({ length: g.count }, (_, i) => ({
        grantId: `${g.grantPrefix}:${i + 1}`,
        userId: g.userId,
        kind: g.kind,
        rentalHours: g.rentalHours,
        scopeBookIds: g.scope,
        source: 'grant',
        reason: g.reason,
        expiresAt: g.expiresAt,
      }));
      const made = await tx
        .insert(readingTickets)
        .values(rows)
        .onConflictDoNothing({ target: readingTickets.grantId })
        .returning({ id: readingTickets.id });
      return made.length;
    },

    usable: (userId: number, q: Queryable = db) => q.$count(readingTickets, usableNow(userId)),

    /** A page of the reader's tickets: usable first, then by expiry (soonest first), as the reader's list orders them. */
    async page(userId: number, page: number, size: number) {
      const total = await db.$count(readingTickets, eq(readingTickets.userId, userId));
      const list = rowsOf<{
        id: number;
        kind: 'read' | 'presale';
        rental_hours: number | null;
        scope_book_ids: number[] | null;
        source: string;
        reason: string;
        state: 'usable' | 'spent' | 'expired';
        expires_at: Date | string;
        spent_at: Date | string | null;
        created_at: Date | string;
      }>(
        await db.execute(sql`
          select id, kind, rental_hours, scope_book_ids, source, reason, expires_at, spent_at, created_at,
                 case when spent_at is not null then 'spent' when expires_at <= now() then 'expired' else 'usable' end
                   as state
          from reading_tickets where user_id = ${userId}::int
          order by (spent_at is null and expires_at > now()) desc, expires_at, id
          limit ${size}::int offset ${(page - 1) * size}::int`),
      );
      return { total, list };
    },
  };
}

export type TicketsConsoleRepository = ReturnType<typeof createTicketsConsoleRepository>;
