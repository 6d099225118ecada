// Migration 0017 on a database that already holds text over the new limits (only an import could write it): the rows
// are cut to BOOK_TEXT_LIMITS, the search postings rebuilt from the cut text at each book's bucket, and the CHECKs
// hold from then on. On the embedded database (the SQL is the same on PostgreSQL, whose tests migrate every run).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { dbKind } from '../../test/test-database.ts';
import { rowsOf } from '../shared/rows.ts';
import { migrationsFolder } from './client.ts';

describe.skipIf(dbKind === 'postgres')('migration 0017 over text longer than the limits', () => {
  it('cuts the text, rebuilds the postings from it, and enforces the limits', async () => {
    // The migrations up to 0016, as a database made before 0017 has them.
    const before = await mkdtemp(path.join(tmpdir(), 'yueman-0016-'));
    const client = new PGlite();
    try {
      await cp(migrationsFolder, before, { recursive: true });
      const journalFile = path.join(before, 'meta/_journal.json');
      const journal = JSON.parse(await readFile(journalFile, 'utf8'));
      journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 16);
      await writeFile(journalFile, JSON.stringify(journal));
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: before });
      await db.execute(sql`insert into categories (id, name) values (1, ${'长'.repeat(30)}), (2, '短')`);
      // Long enough to be over every limit, short enough for 0006's quadratic grams to index in a moment.
      await db.execute(sql`insert into books (title, author, cover, hori_cover, abstract_content, category_id,
          publish_status, read_count)
        values (${`书${'名'.repeat(150)}`}, ${'作'.repeat(60)}, '', '', ${'简介'.repeat(1500)}, 1, 'serialize', 25),
          ('短书', '作者', '', '', '简介', 2, 'finish', 0)`);

      await migrate(db, { migrationsFolder });
      const [long] = rowsOf<Record<string, number>>(
        await db.execute(sql`select char_length(title) as title, char_length(author) as author,
            char_length(abstract_content) as about, indexed_bucket as bucket from books where title like '书%'`),
      );
      expect(long).toEqual({ title: 100, author: 50, about: 2000, bucket: 2 });
      const names = rowsOf<{ name: string }>(await db.execute(sql`select name from categories order by id`));
      expect(names.map((c) => c.name)).toEqual([`${'长'.repeat(18)}#1`, '短']);
      // The postings are exactly the cut books' grams (as the latest migration makes them), at their buckets.
      const drift = rowsOf(
        await db.execute(sql`(select g.gram, g.tier, b.indexed_bucket as bucket, b.id from books as b,
            book_grams_of(b) as g
          except all select p.gram, p.tier, p.bucket, unnest(p.book_ids) from book_postings as p)
          union all
          (select p.gram, p.tier, p.bucket, unnest(p.book_ids) from book_postings as p
          except all select g.gram, g.tier, b.indexed_bucket, b.id from books as b,
            book_grams_of(b) as g)`),
      );
      expect(drift).toEqual([]);
      await expect(
        db.execute(sql`update books set title = ${'名'.repeat(101)} where title = '短书'`),
      ).rejects.toThrow();
    } finally {
      await client.close();
      await rm(before, { recursive: true, force: true });
    }
  }, 120_000);
});
