import { asc, eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { ads, books, imageAssets } from '../../db/schema/index.ts';

export type AdRow = typeof ads.$inferSelect;
/** An ad's columns an operator sets. */
export type AdColumns = Pick<AdRow, 'jumpType' | 'bizId' | 'url' | 'active' | 'startsAt' | 'endsAt'>;

/** The home page's ad carousel as the console reads and writes it. */
export function createAdsConsoleRepository(db: Database) {
  return {
    transaction: db.transaction.bind(db),

    /** Every ad, first shown first. */
    all: (q: Queryable = db) => q.select().from(ads).orderBy(asc(ads.sort), asc(ads.id)),

    /** One ad, locked for a change. */
    async lock(q: Queryable, id: number) {
      const [row] = await q.select().from(ads).where(eq(ads.id, id)).for('update');
      return row;
    },

    count: async (q: Queryable) => (await q.$count(ads)) as number,

    async bookExists(id: number, q: Queryable = db) {
      const [book] = await q.select({ id: books.id }).from(books).where(eq(books.id, id));
      return book !== undefined;
    },

    /** An uploaded picture's size, known to the image host (kept if the path is already known). */
    addImage: (q: Queryable, image: { path: string; width: number; height: number }) =>
      q.insert(imageAssets).values(image).onConflictDoNothing(),

    /** A new ad, shown after the others. */
    async insert(q: Queryable, ad: AdColumns & { imgPath: string }) {
      const [row] = await q
        .insert(ads)
        .values({ ...ad, sort: sql`(select coalesce(max(${ads.sort}), 0) + 1 from ${ads})` })
        .returning();
      return row as AdRow;
    },

    async update(q: Queryable, id: number, ad: AdColumns) {
      const [row] = await q.update(ads).set(ad).where(eq(ads.id, id)).returning();
      return row as AdRow;
    },

    remove: (q: Queryable, id: number) => q.delete(ads).where(eq(ads.id, id)),

    /** Two operators ordering the carousel at once queue here. */
    lockOrder: (q: Queryable) => q.execute(sql`select pg_advisory_xact_lock(hashtext('ads:order'))`),

    setSort: (q: Queryable, id: number, sort: number) => q.update(ads).set({ sort }).where(eq(ads.id, id)),
  };
}

export type AdsConsoleRepository = ReturnType<typeof createAdsConsoleRepository>;
