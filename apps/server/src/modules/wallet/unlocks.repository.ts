import { type SQL, sql } from 'drizzle-orm';
import { type Database, type Queryable, statementName } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';
import { discountedPrice } from './campaigns.repository.ts';
import { createLedgerRepository } from './ledger.repository.ts';

export type UnlockBy = 'coins' | 'wait_free' | 'ticket';

/** What buying a book's bundle did (the service words the refusals). */
export type BundleAttempt =
  | { outcome: 'bought'; chapterIds: number[]; price: number; saves: number }
  | { outcome: 'no_chapter' | 'no_bundle' | 'nothing_left' | 'short' };

/**
 * A bundle's price: the sum of the chapters' prices less `percent`, rounded down to whole coins (at least 1),
 * and each chapter's share of it (its price scaled down, rounded down, the coins left over one each to the first
 * chapters), so the purchase rows sum to the one transfer.
 */
export function bundlePrice(prices: readonly number[], percent: number) {
  const full = prices.reduce((sum, p) => sum + p, 0);
  const total = Math.max(1, Math.floor((full * (100 - percent)) / 100));
  const shares = prices.map((p) => Math.floor((p * total) / full));
  let left = total - shares.reduce((sum, p) => sum + p, 0);
  for (let i = 0; left > 0; i++, left--) shares[i] = (shares[i] ?? 0) + 1;
  return { full, total, saves: full - total, shares };
}

/** What one unlock attempt did (the service words the refusals). */
export type UnlockAttempt =
  | { outcome: 'unlocked' | 'already'; source: string; endsAt: Date | null }
  | {
      outcome:
        | 'not_priced'
        | 'no_chapter'
        | 'no_wait_free'
        | 'early_access'
        | 'waiting'
        | 'no_ticket'
        | 'short';
    };

/**
 * The book's unlock rules for the reader, to join as `r`: the variant of the reader's promotion branch (the account's
 * stored branch, never what a client says) when the book has one, else the book's default row; no row: no rules
 * (coins only). A visitor (`userId` null) gets the default. Put after `left join` (or `join`). The rule is the
 * database's function `reader_unlock_rules` (migration 0033), which the unlock function calls too; PostgreSQL
 * inlines it here.
 */
export const readerRules = (bookId: SQL, userId: number | null) =>
  sql`lateral reader_unlock_rules(${userId}::int, ${bookId}) r on true`;

export const unlockId = (userId: number, chapterId: number) => `unlock:${userId}:${chapterId}`;

async function one<T>(q: Queryable, query: ReturnType<typeof sql>): Promise<T | undefined> {
  return rowsOf<T>(await q.execute(query))[0];
}

/**
 * The right to read the chapter the reader holds now (bought, a live stored unlock, a live limited-free campaign),
 * read inside `q`: the database's function `chapter_held_now` (migration 0033), the unlock function's own check.
 */
async function heldNow(q: Queryable, userId: number, chapterId: number) {
  return one<{ source: string; ends_at: Date | string | null }>(
    q,
    sql`select source, ends_at from chapter_held_now(${userId}::int, ${chapterId}::int)`,
  );
}

const asDate = (v: Date | string | null) => (v === null ? null : new Date(v));

/**
 * Whether the reader may unlock a chapter of the book by wait-for-free now (the wait is over, or a new reader's
 * first-day extras are left): the database's function `unlock_wait_ready` (migration 0033), which the unlock
 * function calls too.
 */
const waitOver = (userId: number, bookId: SQL, extra: SQL) =>
  sql`(select w.ready from unlock_wait_ready(${userId}::int, ${bookId}, ${extra}) w)`;

/**
 * The book's bundle: its percent (0: none) and the priced, released chapters the reader does not hold now (bought, a
 * live stored unlock, or open to them by a live limited-free campaign: free to read now, buyable again once it
 * ends), each at
 * the price the reader would be charged for it now (a live discount for them taken off first); the bundle takes its
 * percent off their sum, and what it saves is against buying them one by one now.
 */
async function bundleQuote(q: Queryable, userId: number, bookId: number) {
  const rows = rowsOf<{ chapter_id: number; price: number; percent: number }>(
    await q.execute(sql`
      select c.id as chapter_id,
             ${discountedPrice({ id: sql`c.id`, bookId: sql`c.book_id`, price: sql`c.price` }, userId)} as price,
             r.bundle_percent as percent
      from books b join ${readerRules(sql`b.id`, userId)}
      join chapters c on c.book_id = b.id and c.price > 0 and c.publish_at is null
      where b.id = ${bookId}::int and b.published and r.bundle_percent > 0
        and not exists (select 1 from chapter_purchases p where p.user_id = ${userId}::int and p.chapter_id = c.id)
        and not exists (select 1 from chapter_unlocks u where u.id = 'unlock:' || ${userId}::int || ':' || c.id
                        and (u.ends_at is null or u.ends_at > now()))
        and not exists (select 1 from unlock_campaigns_live(${userId}::int, c.book_id, c.id) k
                        where k.kind = 'limited_free')
      order by c.number`),
  );
  const percent = rows[0]?.percent ?? 0;
  if (rows.length === 0) return null;
  return {
    chapterIds: rows.map((r) => r.chapter_id),
    ...bundlePrice(
      rows.map((r) => r.price),
      percent,
    ),
  };
}

const UNLOCK_REFUSALS = new Set([
  'not_priced',
  'no_chapter',
  'no_wait_free',
  'early_access',
  'waiting',
  'no_ticket',
  'short',
]);

/**
 * Unlocks by wait-for-free, ticket or coins: one statement, the database's function `unlock_chapter` (migration
 * 0033), in autocommit its own transaction, serialised per reader by the transaction advisory lock it takes first
 * (as coin purchases and bundles do), so parallel attempts of one reader (any source) see each other's result: one
 * unlock, one spend.
 */
export function createUnlocksRepository(db: Database) {
  const ledger = createLedgerRepository(db);
  // Built once, and named on PostgreSQL (parsed once per connection; unnamed behind a transaction pooler, see
  // statementName), as the purchase's statement is: the function keeps the plans of its own statements.
  const unlockStatement = db
    .select({
      outcome: sql<string>`outcome`,
      source: sql<string | null>`source`,
      endsAt: sql<Date | string | null>`ends_at`,
    })
    .from(
      sql`unlock_chapter(${sql.placeholder('userId')}::int, ${sql.placeholder('bookId')}::int, ${sql.placeholder('chapterId')}::int, ${sql.placeholder('by')}::text)`,
    )
    .prepare(statementName(db, 'unlock_chapter'));

  return {
    async unlock(p: {
      userId: number;
      bookId: number;
      chapterId: number;
      by: UnlockBy;
    }): Promise<UnlockAttempt> {
      const [row] = await unlockStatement.execute(p);
      if (!row) throw new Error('the unlock statement answered no row');
      if (row.outcome === 'unlocked' || row.outcome === 'already')
        return { outcome: row.outcome, source: row.source ?? '', endsAt: asDate(row.endsAt) };
      if (!UNLOCK_REFUSALS.has(row.outcome)) throw new Error(`unlock answered ${row.outcome}`);
      return { outcome: row.outcome as Exclude<UnlockAttempt['outcome'], 'unlocked' | 'already'> };
    },

    /**
     * Buys every priced, released chapter of the book the reader does not hold now (bought, or a live unlock: a
     * rented chapter stays out), early-access ones included, at the bundle price, in one transaction under the
     * reader's unlock lock: one ledger transfer `bundle:{user}:{book}:{last chapter}` and one purchase row per
     * chapter. The last chapter of a bundle is bought by it, so a later bundle of the book has another id.
     */
    async bundle(p: { userId: number; bookId: number; chapterId: number }): Promise<BundleAttempt> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('unlock'), ${p.userId}::int)`);
        const book = await one<{ percent: number }>(
          tx,
          sql`select coalesce(r.bundle_percent, 0) as percent
              from chapters c join books b on b.id = c.book_id
              left join ${readerRules(sql`b.id`, p.userId)}
              where c.id = ${p.chapterId}::int and c.book_id = ${p.bookId}::int
                and b.published and c.publish_at is null`,
        );
        if (!book) return { outcome: 'no_chapter' };
        if (book.percent === 0) return { outcome: 'no_bundle' };
        const quote = await bundleQuote(tx, p.userId, p.bookId);
        if (!quote) return { outcome: 'nothing_left' };
        const last = Math.max(...quote.chapterIds);
        const bought = await ledger.buyBundle(tx, {
          transferId: `bundle:${p.userId}:${p.bookId}:${last}`,
          userId: p.userId,
          lastChapterId: last,
          total: quote.total,
          chapters: quote.chapterIds.map((chapterId, i) => ({ chapterId, share: quote.shares[i] ?? 0 })),
          memo: `${quote.chapterIds.length}`,
        });
        if (!bought) return { outcome: 'short' };
        return { outcome: 'bought', chapterIds: quote.chapterIds, price: quote.total, saves: quote.saves };
      });
    },

    /** What a locked chapter offers the reader now (the unlockOptions of docs/api.md). */
    async options(userId: number, chapterId: number) {
      const row = await one<{
        price: number;
        balance: string | null;
        early: boolean;
        wait_minutes: number | null;
        rental_hours: number | null;
        ready_at: Date | string | null;
        ready_now: boolean;
        book_id: number;
        usable: number;
        next_expires_at: Date | string | null;
      }>(
        db,
        sql`select ${discountedPrice({ id: sql`c.id`, bookId: sql`c.book_id`, price: sql`c.price` }, userId)} as price,
                   (select balance from ledger_accounts where user_id = ${userId}::int)::text as balance,
                   c.number > b.chapter_count - coalesce(r.early_access_chapters, 0) as early,
                   r.wait_minutes, r.rental_hours, b.id as book_id,
                   coalesce((select ready_at from unlock_wait_clocks w
                             where w.user_id = ${userId}::int and w.book_id = b.id), now()) as ready_at,
                   ${waitOver(userId, sql`b.id`, sql`coalesce(r.new_reader_extra, 0)`)} as ready_now,
                   count(t.id)::int as usable, min(t.expires_at) as next_expires_at
            from chapters c join books b on b.id = c.book_id
            left join ${readerRules(sql`b.id`, userId)}
            left join reading_tickets t on t.user_id = ${userId}::int and t.spent_at is null
              and t.expires_at > now() and (t.scope_book_ids is null or b.id = any(t.scope_book_ids))
              and (t.kind = 'presale' or c.number <= b.chapter_count - coalesce(r.early_access_chapters, 0))
            where c.id = ${chapterId}::int
            group by c.id, c.book_id, c.price, c.number, b.id, b.chapter_count,
              r.book_id, r.early_access_chapters, r.wait_minutes, r.rental_hours, r.new_reader_extra`,
      );
      if (!row) return undefined;
      const clock = asDate(row.ready_at)?.getTime() ?? Date.now();
      const waitFree =
        row.wait_minutes === null || row.early
          ? null
          : {
              // A new reader's first-day extra makes the unlock ready now, whatever the clock says.
              readyAt: row.ready_now ? Math.min(clock, Date.now()) : clock,
              rentalHours: row.rental_hours ?? 72,
            };
      const quote = await bundleQuote(db, userId, row.book_id);
      return {
        coins: { price: row.price, balance: Number(row.balance ?? 0) },
        waitFree,
        tickets: { usable: row.usable, nextExpiresAt: asDate(row.next_expires_at)?.getTime() ?? null },
        bundle: quote && { price: quote.total, chapters: quote.chapterIds.length, saves: quote.saves },
        earlyAccess: row.early,
      };
    },

    /** The reader's tickets: usable first, then by expiry, soonest first. */
    async tickets(userId: number) {
      return rowsOf<{
        id: number;
        kind: 'read' | 'presale';
        rental_hours: number | null;
        scope_book_ids: number[] | null;
        expires_at: Date | string;
        state: 'usable' | 'spent' | 'expired';
      }>(
        await db.execute(sql`
          select id, kind, rental_hours, scope_book_ids, expires_at,
                 case when spent_at is not null then 'spent' when expires_at <= now() then 'expired' else 'usable' end
                   as state
          from reading_tickets where user_id = ${userId}::int
          order by (spent_at is null and expires_at > now()) desc, expires_at, id
          limit 200`),
      );
    },

    /** The reader's live right to read one chapter (bought or a stored unlock), or undefined. */
    async held(userId: number, chapterId: number) {
      const row = await heldNow(db, userId, chapterId);
      return row && { source: row.source, endsAt: asDate(row.ends_at) };
    },
  };
}

export type UnlocksRepository = ReturnType<typeof createUnlocksRepository>;
