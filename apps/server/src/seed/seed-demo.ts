import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  ads,
  books,
  branchSettings,
  categories,
  chapters,
  hotWords,
  imageAssets,
  payChannels,
  payConfigs,
  showcaseEntries,
} from '../db/schema/index.ts';
import { fillAllSearchKeys } from '../modules/catalog/search-keys.repository.ts';
import { type DemoLibrary, demoLibrary } from './demo-library.ts';

const BATCH = 500;
/** Tables whose ids the seed sets explicitly; their identity sequences must move past them afterwards. */
const IDENTITY_TABLES = ['categories', 'books', 'chapters', 'ads', 'hot_words', 'pay_configs'] as const;
/** Any fixed number: serialises two processes that seed one PostgreSQL database at the same moment. */
const SEED_LOCK_KEY = 7_202_611;

async function inBatches<T>(rows: readonly T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/** The demo's text within BOOK_TEXT_LIMITS, as every writer of a book (the database refuses it otherwise). */
function assertWithinLimits(lib: DemoLibrary) {
  const over = (text: string, max: number) => [...text].length > max;
  for (const c of lib.categories) {
    if (over(c.name, BOOK_TEXT_LIMITS.category)) throw new Error(`demo category ${c.name}: name too long`);
  }
  for (const b of lib.books) {
    if (
      over(b.title, BOOK_TEXT_LIMITS.title) ||
      over(b.author, BOOK_TEXT_LIMITS.author) ||
      over(b.abstractContent, BOOK_TEXT_LIMITS.description) ||
      b.chapters.some((c) => over(c.title, BOOK_TEXT_LIMITS.chapterTitle))
    ) {
      throw new Error(`demo book ${b.id}: a text over BOOK_TEXT_LIMITS`);
    }
  }
}

/**
 * Fills an empty catalogue with the demo library in one transaction. A database that already has books is
 * left alone, so this is safe to call on every start.
 */
export async function seedDemoLibrary(
  db: Database,
  lib: DemoLibrary = demoLibrary(),
): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const existing = await tx.select({ id: books.id }).from(books).limit(1);
    if (existing.length > 0) return { seeded: false };

    assertWithinLimits(lib);
    await tx.insert(categories).values(lib.categories);
    await inBatches(lib.books, (batch) =>
      tx
        .insert(books)
        .values(batch.map(({ chapters: list, ...book }) => ({ ...book, chapterCount: list.length }))),
    );
    const chapterRows = lib.books.flatMap((b) => b.chapters.map((c) => ({ ...c, bookId: b.id })));
    await inBatches(chapterRows, (batch) => tx.insert(chapters).values(batch));
    await tx.insert(showcaseEntries).values(lib.showcases);
    await tx.insert(ads).values(lib.ads);
    await tx.insert(hotWords).values(lib.hotWords.map((word, i) => ({ id: i + 1, word, sort: i + 1 })));
    await tx.insert(payConfigs).values(lib.payConfigs);
    await tx.insert(payChannels).values(lib.payChannels).onConflictDoNothing();
    await tx.insert(branchSettings).values(lib.branchSettings).onConflictDoNothing();
    await inBatches(lib.images, (batch) => tx.insert(imageAssets).values(batch).onConflictDoNothing());

    for (const table of IDENTITY_TABLES) {
      await tx.execute(
        sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.identifier(table)}), 0) + 1, false)`,
      );
    }
    // The books' search keys (pinyin, folded text), in the seed's transaction: searchable as the server starts.
    await fillAllSearchKeys(tx);
    return { seeded: true };
  });
}
