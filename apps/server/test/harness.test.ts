import { eq, ilike, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { books, categories } from '../src/db/schema/index.ts';
import { createTestDatabase, dbKind, describeDb, type TestDatabase } from './test-database.ts';

// Both drivers answer db.execute() with an object holding rows.
async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function addBook(db: Database, title: string) {
  const [category] = await db.insert(categories).values({ name: '热血' }).returning();
  if (!category) throw new Error('no category');
  const [book] = await db
    .insert(books)
    .values({
      title,
      author: '张三',
      cover: '/covers/1.jpg',
      horiCover: '/covers/1-wide.jpg',
      abstractContent: '少年踏上漫画之路。',
      categoryId: category.id,
      publishStatus: 'serialize',
    })
    .returning();
  if (!book) throw new Error('no book');
  return book;
}

describeDb(`test database harness (${dbKind})`, () => {
  let first: TestDatabase;
  let second: TestDatabase;

  beforeAll(async () => {
    [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('opens the driver the project asks for', async () => {
    expect(first.driver).toBe(dbKind);
    const [server] = await rows<{ version: string; encoding: string }>(
      first.db,
      sql`select version() as version, current_setting('server_encoding') as encoding`,
    );
    expect(server?.encoding).toBe('UTF8');
    if (dbKind === 'postgres') {
      expect(server?.version).toMatch(/^PostgreSQL 15\./);
      const [current] = await rows<{ name: string }>(first.db, sql`select current_database() as name`);
      expect(first.url).toMatch(new RegExp(`/${current?.name}$`));
      expect(current?.name).toMatch(/^t_[0-9a-f]{12}$/);
    } else {
      expect(first.url).toBeUndefined();
    }
  });

  it('has the migrated schema and keeps Chinese text', async () => {
    const book = await addBook(first.db, '我的漫画人生');
    const [read] = await first.db.select().from(books).where(eq(books.id, book.id));
    expect(read).toMatchObject({ title: '我的漫画人生', author: '张三', vipFree: true, chapterCount: 0 });

    const found = await first.db
      .select({ title: books.title })
      .from(books)
      .where(ilike(books.title, '%漫画%'));
    expect(found).toEqual([{ title: '我的漫画人生' }]);
    const none = await first.db.select().from(books).where(ilike(books.title, '%小说%'));
    expect(none).toEqual([]);
  });

  it('wraps a unique violation with the driver error as cause', async () => {
    const error = await first.db
      .insert(categories)
      .values({ name: '热血' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as { cause?: { code?: string } })?.cause?.code).toBe('23505');
  });

  it('gives every caller its own database', async () => {
    expect(await second.db.select().from(books)).toEqual([]);
    // The same unique name is free in the other database.
    const book = await addBook(second.db, '另一部漫画');
    expect(book.title).toBe('另一部漫画');
    const titles = await first.db.select({ title: books.title }).from(books);
    expect(titles).toEqual([{ title: '我的漫画人生' }]);
  });
});
