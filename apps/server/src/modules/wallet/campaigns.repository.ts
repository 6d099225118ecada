import type { SQL } from 'drizzle-orm';
import { count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { books, unlockCampaigns } from '../../db/schema/index.ts';
import { rowsOf } from '../../shared/rows.ts';

/**
 * Campaigns (limited-time free, discounts) as SQL the may-read function and the price a purchase charges put into
 * their own statements: nothing is stored per reader, so a campaign starts, ends or is ended by an operator for
 * everyone at once, and the chapter list, read_chapter and the purchase all read the same now().
 *
 * Which campaigns are live for a reader on a chapter, and the price now, are the database's functions
 * `unlock_campaigns_live` and `chapter_price_now` (migration 0033), which the unlock function calls too: the rule is
 * written once. A campaign is live for the reader when now() is in [starts_at, ends_at), it names the chapter (or
 * the whole book), and it is for everyone or for their branch. PostgreSQL inlines both into these statements.
 */
const liveCampaigns = (chapter: { id: SQL; bookId: SQL }, userId: SQL | number | null) =>
  sql`unlock_campaigns_live(${userId}::int, ${chapter.bookId}, ${chapter.id}) k`;

/** The ids of these chapters (`c`, a chapters row in scope) a live limited-free campaign opens to the reader. */
export const limitedFreeChapters = (userId: number, chapterIdsArray: string) => sql`
  select c.id as chapter_id from chapters c
  where c.id = any(${chapterIdsArray}::int[]) and exists (
    select 1 from ${liveCampaigns({ id: sql`c.id`, bookId: sql`c.book_id` }, userId)}
    where k.kind = 'limited_free')`;

/**
 * When the live limited-free campaigns that open the chapter (`c`-like ids) to the reader end, the latest of them
 * (null: none): a scalar for a statement over many chapters (the chapter list's marks). A visitor without an account
 * (`userId` null) gets the campaigns for everyone.
 */
export const limitedFreeEnd = (chapter: { id: SQL; bookId: SQL }, userId: number | null) => sql`
  (select max(k.ends_at) from ${liveCampaigns(chapter, userId)} where k.kind = 'limited_free')`;

/**
 * The coin price the reader is shown and charged for the chapter now: its price less the largest live discount for
 * them, rounded down, never below 1 coin for a priced chapter (a free one stays free): `chapter_price_now`.
 */
export const discountedPrice = (
  chapter: { id: SQL; bookId: SQL; price: SQL },
  userId: SQL | number,
): SQL<number> =>
  sql<number>`(select n.price from chapter_price_now(${userId}::int, ${chapter.bookId}, ${chapter.id}, ${chapter.price}) n)`;

export type CampaignRow = typeof unlockCampaigns.$inferSelect & { bookTitle: string };
export type CampaignChange = Omit<typeof unlockCampaigns.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
/** A change as the update sets it: values, or SQL computed in the update (ending now). */
export type CampaignSet = { [K in keyof CampaignChange]?: CampaignChange[K] | SQL };
type Audit = (tx: Queryable, before: CampaignRow | null, after: CampaignRow) => Promise<unknown>;

const withTitle = { ...getTableColumns(unlockCampaigns), bookTitle: books.title };

/** The console's campaigns: listed newest window first; each change in one transaction with its audit entry. */
/** The change that ends a campaign now, by the database's clock: its end (and its start, if still ahead) move to now(). */
export const endedNow: CampaignSet = {
  endsAt: sql`least(ends_at, now())`,
  startsAt: sql`least(starts_at, now())`,
};

export function createCampaignsRepository(db: Database) {
  const byId = (q: Queryable, id: number) =>
    q
      .select(withTitle)
      .from(unlockCampaigns)
      .innerJoin(books, eq(books.id, unlockCampaigns.bookId))
      .where(eq(unlockCampaigns.id, id));

  return {
    /** One campaign as the console shows it, or undefined. */
    async find(id: number) {
      const [row] = await byId(db, id);
      return row;
    },

    async page(p: { bookId?: number; limit: number; offset: number }) {
      const where = p.bookId === undefined ? undefined : eq(unlockCampaigns.bookId, p.bookId);
      const [rows, [total]] = await Promise.all([
        db
          .select(withTitle)
          .from(unlockCampaigns)
          .innerJoin(books, eq(books.id, unlockCampaigns.bookId))
          .where(where)
          // Running and coming ones first, then the ended ones, newest first.
          .orderBy(
            desc(sql`${unlockCampaigns.endsAt} > now()`),
            desc(unlockCampaigns.startsAt),
            desc(unlockCampaigns.id),
          )
          .limit(p.limit)
          .offset(p.offset),
        db.select({ n: count() }).from(unlockCampaigns).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** The book's chapters among these ids (a campaign names only chapters of its own book), and whether it exists. */
    async bookChapters(bookId: number, chapterIds: number[]) {
      const [book] = await db.select({ id: books.id }).from(books).where(eq(books.id, bookId));
      if (!book) return undefined;
      const ids = `{${chapterIds.map((id) => Math.trunc(id)).join(',')}}`;
      const rows = rowsOf<{ id: number }>(
        await db.execute(
          sql`select id from chapters where book_id = ${bookId}::int and id = any(${ids}::int[])`,
        ),
      );
      return new Set(rows.map((r) => r.id));
    },

    create(change: CampaignChange, audit: Audit) {
      return db.transaction(async (tx) => {
        const [added] = await tx.insert(unlockCampaigns).values(change).returning({ id: unlockCampaigns.id });
        if (!added) throw new Error('campaign not added');
        const [after] = await byId(tx, added.id);
        if (!after) throw new Error('campaign not added');
        await audit(tx, null, after);
        return after;
      });
    },

    /** The campaign changed (locked first, so two operators take turns), or undefined when there is none. */
    /** `change` null: nothing to change (no write, no audit entry). */
    edit(id: number, change: (before: CampaignRow) => Promise<CampaignSet | null>, audit: Audit) {
      return db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: unlockCampaigns.id })
          .from(unlockCampaigns)
          .where(eq(unlockCampaigns.id, id))
          .for('update');
        if (!locked) return undefined;
        const [before] = await byId(tx, id);
        if (!before) return undefined;
        const set = await change(before);
        if (set === null) return { before, after: before, changed: false };
        await tx
          .update(unlockCampaigns)
          .set({ ...set, updatedAt: sql`now()` })
          .where(eq(unlockCampaigns.id, id));
        const [after] = await byId(tx, id);
        if (!after) return undefined;
        await audit(tx, before, after);
        return { before, after, changed: true };
      });
    },
  };
}

export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
