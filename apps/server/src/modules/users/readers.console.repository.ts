import { and, count, desc, eq, gt, or, type SQL, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import {
  books,
  branchSettings,
  chapterPurchases,
  chapters,
  ledgerTransfers,
  sessions,
  users,
  visitMarks,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

/** What the search box input was read as (readers.console.service.ts `readerQuery`). */
export interface ReaderQuery {
  text: string;
  userId?: number;
  mobile?: string;
}

/**
 * What the console reads and writes of a reader. Read-only reports join the ledger, purchases and branch settings in
 * their queries, as the orders console does (the wallet's ledger stays the only code that moves coins); the writes
 * here are the reader's own rows (sessions, the block), each with its audit entry in the same transaction.
 */
export function createReadersConsoleRepository(db: Database) {
  const user = async (userId: number) => {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    return row;
  };

  return {
    user,

    /** Readers whose id, account, bound mobile or visitor id is the input; at most `limit`, newest first. */
    async search(q: ReaderQuery, limit: number) {
      const match: SQL[] = [eq(users.account, q.text), eq(users.visitorId, q.text)];
      if (q.userId !== undefined) match.push(eq(users.id, q.userId));
      if (q.mobile !== undefined) match.push(eq(users.mobile, q.mobile));
      return db
        .select({
          userId: users.id,
          account: users.account,
          mobile: users.mobile,
          visitorId: users.visitorId,
          createdAt: users.createdAt,
          blockedAt: users.blockedAt,
        })
        .from(users)
        .where(or(...match))
        .orderBy(desc(users.id))
        .limit(limit);
    },

    /** The branch's name, the first visit of the reader's visitor id and how many sessions are live. */
    async profileExtras(userId: number, visitorId: string, branchId: number, now: Date) {
      const [branch] = await db
        .select({ name: branchSettings.name })
        .from(branchSettings)
        .where(eq(branchSettings.branchId, branchId));
      const [first] = await db
        .select({ at: sql<Date | string | null>`min(${visitMarks.createdAt})` })
        .from(visitMarks)
        .where(or(eq(visitMarks.visitorId, visitorId), eq(visitMarks.userId, userId)));
      const [live] = await db
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)));
      return {
        branchName: branch?.name ?? '',
        firstVisitAt: first?.at ? new Date(first.at) : null,
        activeSessions: live?.n ?? 0,
      };
    },

    async purchases(userId: number, limit: number, offset: number) {
      const [total] = await db
        .select({ n: count() })
        .from(chapterPurchases)
        .where(eq(chapterPurchases.userId, userId));
      const list = await db
        .select({
          chapterId: chapterPurchases.chapterId,
          bookId: chapters.bookId,
          bookTitle: books.title,
          chapterNumber: chapters.number,
          chapterTitle: chapters.title,
          price: chapterPurchases.price,
          createdAt: chapterPurchases.createdAt,
        })
        .from(chapterPurchases)
        .innerJoin(chapters, eq(chapters.id, chapterPurchases.chapterId))
        .innerJoin(books, eq(books.id, chapters.bookId))
        .where(eq(chapterPurchases.userId, userId))
        .orderBy(desc(chapterPurchases.createdAt), desc(chapterPurchases.chapterId))
        .limit(limit)
        .offset(offset);
      return { total: total?.n ?? 0, list };
    },

    /** The reader's transfers, their side signed, with the other side's account code. */
    async transfers(userId: number, limit: number, offset: number) {
      const [total] = await db
        .select({ n: count() })
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.userId, userId));
      const rows = rowsOf<{
        id: string;
        kind: string;
        memo: string;
        created_at: Date | string;
        amount: number | null;
        counterparty: string | null;
      }>(
        await db.execute(sql`
          with mine as (select id from ledger_accounts where user_id = ${userId}::int)
          select t.id, t.kind, t.memo, t.created_at,
                 (select e.amount from ledger_entries e
                  where e.transfer_id = t.id and e.account_id in (select id from mine) limit 1) as amount,
                 (select coalesce(a.code, 'user:' || a.user_id) from ledger_entries e
                  join ledger_accounts a on a.id = e.account_id
                  where e.transfer_id = t.id and e.account_id not in (select id from mine) limit 1) as counterparty
          from ledger_transfers t
          where t.user_id = ${userId}::int
          order by t.created_at desc, t.id desc
          limit ${limit}::int offset ${offset}::int`),
      );
      const list = rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        memo: r.memo,
        createdAt: new Date(r.created_at),
        amount: r.amount === null ? null : Number(r.amount),
        counterparty: r.counterparty,
      }));
      return { total: total?.n ?? 0, list };
    },

    /** Live sessions: their times only (the token's hash never leaves this file). */
    async liveSessions(userId: number, now: Date, limit: number, offset: number) {
      const live = and(eq(sessions.userId, userId), gt(sessions.expiresAt, now));
      const [total] = await db.select({ n: count() }).from(sessions).where(live);
      const list = await db
        .select({ createdAt: sessions.createdAt, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(live)
        .orderBy(desc(sessions.createdAt))
        .limit(limit)
        .offset(offset);
      return { total: total?.n ?? 0, list };
    },

    /** Ends every session of the reader, and the audit entry, in one transaction; undefined when no such reader. */
    async endSessions(userId: number, audit: (tx: Queryable, ended: number) => Promise<unknown>) {
      return db.transaction(async (tx) => {
        const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        if (!row) return undefined;
        const gone = await tx
          .delete(sessions)
          .where(eq(sessions.userId, userId))
          .returning({ expiresAt: sessions.expiresAt });
        await audit(tx, gone.length);
        return gone.length;
      });
    },

    /**
     * Blocks (reason) or unblocks (null) the reader under their row's lock, and writes the audit entry with the state
     * before and after; a block also ends nothing else (the reader keeps reading). Undefined when no such reader.
     */
    async setBlock(
      userId: number,
      block: { at: Date; reason: string } | null,
      audit: (
        tx: Queryable,
        before: { blockedAt: Date | null; blockReason: string | null },
      ) => Promise<unknown>,
    ) {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select({ blockedAt: users.blockedAt, blockReason: users.blockReason })
          .from(users)
          .where(eq(users.id, userId))
          .for('update');
        if (!before) return undefined;
        await tx
          .update(users)
          .set(
            block
              ? { blockedAt: sql`coalesce(${users.blockedAt}, ${block.at})`, blockReason: block.reason }
              : { blockedAt: null, blockReason: null },
          )
          .where(eq(users.id, userId));
        await audit(tx, before);
        return before;
      });
    },
  };
}

export type ReadersConsoleRepository = ReturnType<typeof createReadersConsoleRepository>;
