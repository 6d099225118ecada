import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from '../../test/test-database.ts';
import type { Database } from '../db/client.ts';
import { books, categories, chapters } from '../db/schema/index.ts';
import { seedDemoLibrary } from './seed-demo.ts';
import { seedScale } from './seed-scale.ts';

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function inconsistentBooks(db: Database) {
  return rows(
    db,
    sql`select b.id from books b left join chapters c on c.book_id = b.id
        group by b.id having b.chapter_count <> count(c.id)`,
  );
}

describeDb(`seedScale (${dbKind})`, () => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await createTestDatabase();
    db = test.db;
  });
  afterAll(async () => {
    await test?.close();
  });

  it('creates the demo categories in an empty database', async () => {
    const empty = await createTestDatabase();
    try {
      const result = await seedScale(empty.db, { books: 30, chaptersPerBook: 3 });
      expect(result).toMatchObject({ books: 30, chapters: 90 });
      expect((await empty.db.select().from(categories)).length).toBeGreaterThanOrEqual(8);
      expect(await empty.db.$count(books)).toBe(30);
      expect(await empty.db.$count(chapters)).toBe(90);
      expect(await inconsistentBooks(empty.db)).toEqual([]);
    } finally {
      await empty.close();
    }
  });

  it('adds exactly 1,000 books and 20,000 chapters after the demo library, counts consistent', async () => {
    await seedDemoLibrary(db);
    const [booksBefore, chaptersBefore] = [await db.$count(books), await db.$count(chapters)];
    const result = await seedScale(db, { books: 1000 });
    expect(result).toMatchObject({ books: 1000, chapters: 20_000 });
    expect(await db.$count(books)).toBe(booksBefore + 1000);
    expect(await db.$count(chapters)).toBe(chaptersBefore + 20_000);
    expect(await inconsistentBooks(db)).toEqual([]);

    const [shape] = await rows<{ titles: number; statuses: number; free: number; badPrice: number }>(
      db,
      sql`select count(distinct b.title)::int as titles, count(distinct b.publish_status)::int as statuses,
                 count(*) filter (where c.number <= 3 and c.price = 0)::int as free,
                 count(*) filter (where c.price <> 0 and c.price not between 20 and 60)::int as "badPrice"
          from books b join chapters c on c.book_id = b.id where b.cover like 'covers/shared/%'`,
    );
    expect(shape?.titles).toBeGreaterThan(500);
    expect(shape?.statuses).toBe(2);
    expect(shape?.free).toBe(3000);
    expect(shape?.badPrice).toBe(0);
    // Each book went in with its search keys and pinyin keys (no job keys them later).
    const [keyed] = await rows<{ unkeyed: number; unpinyined: number }>(
      db,
      sql`select count(*) filter (where b.search_title is null)::int as unkeyed,
                 count(*) filter (where not exists (select 1 from book_pinyin_keys k where k.book_id = b.id))::int as unpinyined
          from books b where b.cover like 'covers/shared/%'`,
    );
    expect(keyed).toEqual({ unkeyed: 0, unpinyined: 0 });
  }, 120_000);

  it('points every synthetic image at a placeholder with a recorded size', async () => {
    const missing = await rows(
      db,
      sql`select p.path from (
            select distinct unnest(pics) as path from chapters union select cover from chapters
            union select cover from books union select hori_cover from books
          ) p left join image_assets i on i.path = p.path where i.path is null limit 5`,
    );
    expect(missing).toEqual([]);
  });

  it('refuses sizes out of range', async () => {
    await expect(seedScale(db, { books: 0 })).rejects.toThrow(RangeError);
    await expect(seedScale(db, { books: 1_000_001 })).rejects.toThrow(RangeError);
    await expect(seedScale(db, { books: 1, chaptersPerBook: 0 })).rejects.toThrow(RangeError);
    await expect(seedScale(db, { books: 1, chaptersPerBook: 2001 })).rejects.toThrow(RangeError);
  });
});
