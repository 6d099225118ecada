// Data and SQL for bench/purchase.mjs, in TypeScript so it uses the server's own schema, ledger and driver.
// Readers with sessions and coins, and books of priced chapters, so every benchmark request is a real purchase.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { type Database, type DatabaseTarget, openDatabase } from '../apps/server/src/db/client.ts';
import * as schema from '../apps/server/src/db/schema/index.ts';
import { books, categories, chapters, sessions, users } from '../apps/server/src/db/schema/index.ts';
import { hashToken, resolveSession } from '../apps/server/src/modules/users/sessions.ts';
import { createUsersRepository } from '../apps/server/src/modules/users/users.repository.ts';
import { createLedgerRepository } from '../apps/server/src/modules/wallet/ledger.repository.ts';
import { createWalletRepository } from '../apps/server/src/modules/wallet/wallet.repository.ts';
import { buyChapter } from '../apps/server/src/modules/wallet/wallet.service.ts';
import { rowsOf } from '../apps/server/src/shared/rows.ts';

export const PRICE = 10;
const COINS = 1_000_000;
const BATCH = 500;

export interface BenchData {
  /** One session token per reader (the `sid` cookie), in user id order. */
  tokens: string[];
  firstUserId: number;
  lastUserId: number;
  /** Chapter ids of each book, one book per measured side, so no side buys what another bought. */
  books: { name: string; chapterIds: number[] }[];
}

/**
 * Rows 0 to count - 1, made by `row` and inserted BATCH at a time (a multi-row insert has a parameter limit);
 * what `insert` returns for each batch, in order.
 */
async function inBatches<Row, Out>(
  count: number,
  row: (i: number) => Row,
  insert: (rows: Row[]) => Promise<Out[]>,
): Promise<Out[]> {
  const out: Out[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => row(start + i));
    out.push(...(await insert(rows)));
  }
  return out;
}

/** Creates readers (with sessions and coins) and one book of `chapters` priced chapters per name. */
export async function seedPurchaseBench(
  target: DatabaseTarget,
  opts: { readers: number; chapters: number; bookNames: string[]; pgbenchSessions?: boolean },
): Promise<BenchData> {
  const { db, close } = await openDatabase(target);
  try {
    const ledger = createLedgerRepository(db);
    const expiresAt = new Date(Date.now() + 365 * 24 * 3600 * 1000);
    const readers = await inBatches(
      opts.readers,
      (i) => ({
        account: `bench${String(i).padStart(7, '0')}`,
        passwordHash: 'not-a-password-hash',
        visitorId: `bench-visitor-${i}`,
      }),
      async (rows) => {
        const created = await db.insert(users).values(rows).returning({ id: users.id });
        const batch = created.map((u) => ({ userId: u.id, token: randomBytes(32).toString('base64url') }));
        await db.insert(sessions).values([
          ...batch.map((r) => ({ tokenHash: hashToken(r.token), userId: r.userId, expiresAt })),
          // pgbench's sessions of the same readers, found by a hash pgbench can pass (pgbenchTokenHash).
          ...(opts.pgbenchSessions
            ? batch.map((r) => ({ tokenHash: pgbenchTokenHash(r.userId), userId: r.userId, expiresAt }))
            : []),
        ]);
        return batch;
      },
    );
    const tokens = readers.map((r) => r.token);
    const userIds = readers.map((r) => r.userId);
    // Coins through the ledger itself, as a recharge would credit them.
    for (const userId of userIds) {
      await ledger.credit(
        db,
        { transferId: `bench:${userId}:coins`, kind: 'recharge', userId, amount: COINS },
        'system:payments',
      );
    }

    const [category] = await db.insert(categories).values({ name: '压测' }).returning();
    const made: BenchData['books'] = [];
    for (const name of opts.bookNames) {
      const [book] = await db
        .insert(books)
        .values({
          title: `压测之书 ${name}`,
          author: '压测',
          cover: 'covers/bench-v.png',
          horiCover: 'covers/bench-h.png',
          categoryId: category?.id ?? 0,
          publishStatus: 'serialize',
          vipFree: false,
          chapterCount: opts.chapters,
        })
        .returning();
      const created = await inBatches(
        opts.chapters,
        (i) => ({
          bookId: book?.id ?? 0,
          number: i + 1,
          title: `第${i + 1}话`,
          cover: 'chapters/bench.png',
          price: PRICE,
        }),
        (rows) => db.insert(chapters).values(rows).returning({ id: chapters.id }),
      );
      made.push({ name, chapterIds: created.map((r) => r.id) });
    }
    return {
      tokens,
      firstUserId: Math.min(...userIds),
      lastUserId: Math.max(...userIds),
      books: made,
    };
  } finally {
    await close();
  }
}

/** Purchases, coins spent and the ledger's two global invariants, for the check after each run. */
export async function purchaseTotals(target: DatabaseTarget) {
  const { db, close } = await openDatabase(target);
  try {
    const [row] = rowsOf<{
      claims: number;
      transfers: number;
      spent: string;
      entries_sum: string;
      negative: number;
      unpaid: number;
    }>(
      await db.execute(sql`
        select (select count(*) from chapter_purchases)::int as claims,
               (select count(*) from ledger_transfers where kind = 'purchase')::int as transfers,
               (select coalesce(sum(amount), 0) from ledger_transfers where kind = 'purchase')::text as spent,
               (select coalesce(sum(amount), 0) from ledger_entries)::text as entries_sum,
               (select count(*) from ledger_accounts where user_id is not null and balance < 0)::int as negative,
               (select count(*) from chapter_purchases p where p.price > 0 and not exists (
                  select 1 from ledger_transfers t
                  where t.id = 'purchase:' || p.user_id || ':' || p.chapter_id and t.amount = p.price))::int as unpaid`),
    );
    if (!row) throw new Error('no totals');
    return {
      claims: row.claims,
      transfers: row.transfers,
      spent: Number(row.spent),
      entriesSum: Number(row.entries_sum),
      negativeBalances: row.negative,
      unpaidClaims: row.unpaid,
    };
  } finally {
    await close();
  }
}

/** What pgbench passes for the session lookup's token hash: its readers' sessions are stored under it. */
export const pgbenchTokenHash = (userId: number) => String(userId);

/**
 * The SQL statements the server sends to PostgreSQL for one purchase, in order, captured from the real code:
 * the identity plugin's session lookup (`resolveSession`), then the wallet service's `buyChapter` (the
 * chapter's price, prepared; the ledger's purchase statement), run against drizzle's node-postgres driver on
 * a client that records each query and answers what a purchase would find. The purchase statement is the call
 * of the ledger's function `ledger_buy_chapter` (migration 0003), so pgbench runs the same function body with
 * its plan kept per connection, as the server's connections do. Their parameters become pgbench variables: :u
 * the reader (also the session's token hash, see pgbenchTokenHash), :now the time, :c the chapter, :p the price.
 * A boolean the code passes as a parameter (the price lookup's `books.published = true`) stays a parameter too:
 * the variable :true (or :false), whose value is in `variables`, for pgbench's `-D`.
 */
export async function purchaseRequestForPgbench(): Promise<{
  statements: string[];
  names: (string | null)[];
  variables: Record<string, string>;
}> {
  const marks = { userId: 1_000_000_001, chapterId: 1_000_000_002, price: 1_000_000_003 };
  const token = 'pgbench-capture-token';
  const now = new Date();
  const sent: { name: string | null; text: string; params: unknown[] }[] = [];
  const client = {
    async query(config: string | { text: string; name?: string }, params: unknown[] = []) {
      const query = typeof config === 'string' ? { text: config } : config;
      sent.push({ name: query.name ?? null, text: query.text, params });
      if (query.name === 'wallet_chapter_for_sale') return { rows: [[marks.price, false]], fields: [] };
      if (query.name === 'ledger_buy_chapter') return { rows: [[false, 1, 1, 2, '0', null]], fields: [] };
      return { rows: [], fields: [] };
    },
  };
  const db = drizzlePg({ client: client as never, schema, casing: 'snake_case' }) as unknown as Database;
  await resolveSession(createUsersRepository(db), token, now);
  const bought = await buyChapter(
    { repo: createWalletRepository(db) },
    { userId: marks.userId, isVip: false, chapterId: marks.chapterId },
  );
  if (bought.charged !== marks.price) throw new Error('the captured purchase did not buy');
  if (sent.length !== 3) throw new Error(`expected 3 statements for a purchase, captured ${sent.length}`);

  const byValue = new Map<unknown, string>([
    [hashToken(token), ':u'],
    [now.toISOString(), ':now'],
    [marks.userId, ':u'],
    [marks.chapterId, ':c'],
    [marks.price, ':p'],
    [true, ':true'],
    [false, ':false'],
  ]);
  const variables: Record<string, string> = {};
  const statements = sent.map(({ text: sql, params }) => {
    let text = sql;
    // Highest index first, so $1 does not eat the start of $10.
    for (let i = params.length; i >= 1; i--) {
      const value = params[i - 1] instanceof Date ? (params[i - 1] as Date).toISOString() : params[i - 1];
      const replacement = byValue.get(value);
      if (!replacement) throw new Error(`unexpected parameter $${i} = ${String(value)} in ${sql}`);
      if (typeof value === 'boolean') variables[String(value)] = String(value);
      text = text.replaceAll(`$${i}`, replacement);
    }
    // pgbench takes every ':name' for a variable, even inside a string literal.
    const literals = sql.match(/'[^']*'/g) ?? [];
    if (literals.some((literal) => /:[A-Za-z_]/.test(literal))) {
      throw new Error('a string literal with a colon that pgbench would take for a variable');
    }
    // pgbench reads one SQL command up to its semicolon; blank lines and indentation are harmless.
    return `${text.trim()};`;
  });
  return { statements, names: sent.map((q) => q.name), variables };
}

// ------------------------------------------------------------------------------ unlocks: wait-for-free and tickets

/** One measured side's unlock books: the wait-for-free books (their chapter ids) and the ticket book's chapters. */
export interface UnlockSide {
  name: string;
  /** Wait-for-free books, consecutive ids; each has `waitChapters` priced chapters, consecutive ids, none early. */
  waitBookIds: number[];
  /** The first chapter of each wait-for-free book, in book order: request (reader r, book b) unlocks waitChapterIds[b]. */
  waitChapterIds: number[];
  ticketBookId: number;
  /** The ticket book's chapters, consecutive ids: a reader's j-th ticket unlock takes ticketChapterIds[j]. */
  ticketChapterIds: number[];
}

/** The wait-for-free rule of the bench's books: a day's wait, the default 72-hour rental, no early access. */
export const WAIT_RULE = { waitMinutes: 24 * 60, rentalHours: 72 };
/** The bench's tickets: a 72-hour rental, kind `read`, scoped to the side's ticket book, a month to expiry. */
export const TICKET_RENTAL_HOURS = 72;

const consecutive = (ids: number[], what: string) => {
  for (let i = 1; i < ids.length; i++) {
    if (ids[i] !== (ids[0] ?? 0) + i)
      throw new Error(`${what}: ids are not consecutive (pgbench computes them)`);
  }
};

/**
 * Per side: `waitBooks` wait-for-free books of `waitChapters` chapters (a reader unlocks one chapter of each, the
 * wait restarting per book, so readers × waitBooks wait-free unlocks are possible), and one ticket book of
 * `ticketChapters` chapters, every reader of `userIds` holding `ticketsPerReader` tickets scoped to it (granted as
 * an operator's grant makes them: one reading_tickets row each, source `grant`).
 */
export async function seedUnlockBench(
  target: DatabaseTarget,
  opts: {
    sides: string[];
    firstUserId: number;
    lastUserId: number;
    waitBooks: number;
    waitChapters: number;
    ticketChapters: number;
    ticketsPerReader: number;
  },
): Promise<UnlockSide[]> {
  const { db, close } = await openDatabase(target);
  try {
    const [category] = await db.insert(categories).values({ name: '压测解锁' }).returning();
    const makeBook = async (title: string, chapterCount: number) => {
      const [book] = await db
        .insert(books)
        .values({
          title,
          author: '压测',
          cover: 'covers/bench-v.png',
          horiCover: 'covers/bench-h.png',
          categoryId: category?.id ?? 0,
          publishStatus: 'serialize',
          vipFree: false,
          chapterCount,
        })
        .returning({ id: books.id });
      const bookId = book?.id ?? 0;
      const made = await inBatches(
        chapterCount,
        (i) => ({ bookId, number: i + 1, title: `第${i + 1}话`, cover: 'chapters/bench.png', price: PRICE }),
        (rows) => db.insert(chapters).values(rows).returning({ id: chapters.id }),
      );
      await db.execute(sql`
        insert into book_unlock_rules (book_id, wait_minutes, rental_hours)
        values (${bookId}::int, ${WAIT_RULE.waitMinutes}::int, ${WAIT_RULE.rentalHours}::int)`);
      return { bookId, chapterIds: made.map((r) => r.id) };
    };
    const sides: UnlockSide[] = [];
    for (const name of opts.sides) {
      const wait = [];
      for (let b = 0; b < opts.waitBooks; b++) {
        wait.push(await makeBook(`压测等免 ${name} ${b + 1}`, opts.waitChapters));
      }
      const allWaitChapters = wait.flatMap((w) => w.chapterIds);
      consecutive(
        wait.map((w) => w.bookId),
        'wait-for-free books',
      );
      consecutive(allWaitChapters, 'wait-for-free chapters');
      const ticket = await makeBook(`压测阅读券 ${name}`, opts.ticketChapters);
      consecutive(ticket.chapterIds, 'ticket chapters');
      await db.execute(sql`
        insert into reading_tickets (grant_id, user_id, kind, rental_hours, scope_book_ids, source, reason, expires_at)
        select 'tickets:' || u.id || ':bench-' || ${name}::text || ':' || n, u.id, 'read', ${TICKET_RENTAL_HOURS}::int,
               array[${ticket.bookId}::int], 'grant', '压测', now() + interval '30 days'
        from users u cross join generate_series(1, ${opts.ticketsPerReader}::int) n
        where u.id between ${opts.firstUserId}::int and ${opts.lastUserId}::int`);
      sides.push({
        name,
        waitBookIds: wait.map((w) => w.bookId),
        waitChapterIds: wait.map((w) => w.chapterIds[0] ?? 0),
        ticketBookId: ticket.bookId,
        ticketChapterIds: ticket.chapterIds,
      });
    }
    return sides;
  } finally {
    await close();
  }
}

/**
 * What the unlocks of one side did: its stored unlocks by source, its spent tickets, and the checks that each is
 * whole (every ticket unlock has its ticket spent on that very chapter by that reader; every wait-free unlock has
 * its reader's wait clock for the book restarted).
 */
export async function unlockTotals(target: DatabaseTarget, side: UnlockSide) {
  const { db, close } = await openDatabase(target);
  try {
    const bookIds = [...side.waitBookIds, side.ticketBookId];
    const [row] = rowsOf<{
      wait_free: number;
      ticket: number;
      spent: number;
      ticket_mismatch: number;
      clocks: number;
    }>(
      await db.execute(sql`
        select (select count(*) from chapter_unlocks u join chapters c on c.id = u.chapter_id
                where c.book_id = any(${`{${bookIds.join(',')}}`}::int[]) and u.source = 'wait_free')::int as wait_free,
               (select count(*) from chapter_unlocks u join chapters c on c.id = u.chapter_id
                where c.book_id = ${side.ticketBookId}::int and u.source = 'ticket')::int as ticket,
               (select count(*) from reading_tickets t
                where t.scope_book_ids = array[${side.ticketBookId}::int] and t.spent_at is not null)::int as spent,
               (select count(*) from chapter_unlocks u join chapters c on c.id = u.chapter_id
                left join reading_tickets t on t.id = u.ticket_id
                where c.book_id = ${side.ticketBookId}::int and u.source = 'ticket'
                  and (t.id is null or t.spent_chapter_id is distinct from u.chapter_id
                       or t.user_id <> u.user_id))::int as ticket_mismatch,
               (select count(*) from unlock_wait_clocks w
                where w.book_id = any(${`{${side.waitBookIds.join(',')}}`}::int[]) and w.ready_at > now())::int as clocks`),
    );
    if (!row) throw new Error('no unlock totals');
    return {
      waitFree: row.wait_free,
      ticket: row.ticket,
      ticketsSpent: row.spent,
      ticketMismatch: row.ticket_mismatch,
      waitClocks: row.clocks,
    };
  } finally {
    await close();
  }
}

/**
 * The SQL the server sends PostgreSQL for one unlock by `by` ('wait_free' or 'ticket'), in order, captured from the
 * real code as purchaseRequestForPgbench does: the session lookup, then the unlocks repository's one statement, the
 * call of the function `unlock_chapter` (migration 0033; named on PostgreSQL, so the server parses it once per
 * connection), which does the whole unlock in the database. The fake client answers what an unlock finds; the
 * capture checks there are exactly two statements. Variables: :u the reader (and its session's token hash), :c the
 * chapter, :b the book, :now the time; the way (a constant parameter) is the variable :source given in `variables`.
 * pgbench runs the same function, so it keeps the same plans per connection as the server's connections do.
 */
export async function unlockRequestForPgbench(by: 'wait_free' | 'ticket'): Promise<{
  statements: string[];
  names: (string | null)[];
  variables: Record<string, string>;
}> {
  const { createUnlocksRepository } = await import('../apps/server/src/modules/wallet/unlocks.repository.ts');
  const marks = { userId: 1_000_000_001, chapterId: 1_000_000_002, bookId: 1_000_000_004 };
  const token = 'pgbench-capture-token';
  const now = new Date();
  const sent: { name: string | null; text: string; params: unknown[] }[] = [];
  const client = {
    async query(config: string | { text: string; name?: string }, params: unknown[] = []) {
      const query = typeof config === 'string' ? { text: config } : config;
      sent.push({ name: query.name ?? null, text: query.text, params });
      if (query.name === 'unlock_chapter') return { rows: [['unlocked', by, now.toISOString()]], fields: [] };
      return { rows: [], fields: [] };
    },
  };
  const db = drizzlePg({ client: client as never, schema, casing: 'snake_case' }) as unknown as Database;
  await resolveSession(createUsersRepository(db), token, now);
  const done = await createUnlocksRepository(db).unlock({
    userId: marks.userId,
    bookId: marks.bookId,
    chapterId: marks.chapterId,
    by,
  });
  if (done.outcome !== 'unlocked' || done.source !== by)
    throw new Error(`the captured ${by} unlock did not unlock`);
  if (sent.length !== 2) throw new Error(`expected 2 statements for an unlock, captured ${sent.length}`);

  const byValue = new Map<unknown, string>([
    [hashToken(token), ':u'],
    [now.toISOString(), ':now'],
    [marks.userId, ':u'],
    [marks.chapterId, ':c'],
    [marks.bookId, ':b'],
    // The unlock's way, a constant the code passes as a parameter: a pgbench variable given with -D.
    [by, ':source'],
  ]);
  const statements = sent.map(({ text: sqlText, params }) => {
    let text = sqlText;
    for (let i = params.length; i >= 1; i--) {
      const value = params[i - 1] instanceof Date ? (params[i - 1] as Date).toISOString() : params[i - 1];
      const replacement = byValue.get(value);
      if (replacement === undefined)
        throw new Error(`unexpected parameter $${i} = ${String(value)} in ${sqlText}`);
      text = text.replaceAll(`$${i}`, replacement);
    }
    const literals = sqlText.match(/'[^']*'/g) ?? [];
    if (literals.some((literal) => /:[A-Za-z_]/.test(literal))) {
      throw new Error('a string literal with a colon that pgbench would take for a variable');
    }
    return `${text.trim()};`;
  });
  return { statements, names: sent.map((q) => q.name), variables: { source: by } };
}
