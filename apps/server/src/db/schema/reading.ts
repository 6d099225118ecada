import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, real, smallint, timestamp } from 'drizzle-orm/pg-core';
import { books } from './catalog.ts';
import { users } from './users.ts';

// Where each reader stopped in each book: the chapter, the page and how far down it, so another device resumes there.
// One row per (user, book); a write older than the stored one (by the time the reader was there) changes nothing.
export const readingProgress = pgTable(
  'reading_progress',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    chapterNumber: integer().notNull(),
    /** 1-based page of the chapter. */
    pageNumber: integer().notNull(),
    /** How far down that page the top of the screen was, 0 to 1. */
    pageOffset: real().notNull().default(0),
    /** When the reader was there (the device's time, never ahead of the server's). */
    readAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bookId] }),
    // The dashboard's readers per book over a range of days.
    index('reading_progress_by_read_at').on(t.readAt),
  ],
);

// The books each reader follows (追更), on the account like reading progress. `seenChapter` is the newest released
// chapter the reader has seen listed (the shelf looked at): a newer one lights the shelf tab's dot. `pileUp` (攒更):
// tell the reader once that many chapters have come out unread (0: off); `pileToldChapter` is the newest chapter
// when they were last told, so each pile is told once.
export const follows = pgTable(
  'follows',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    followedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    seenChapter: integer().notNull().default(0),
    pileUp: smallint().notNull().default(0),
    pileToldChapter: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bookId] }),
    check('follows_pile_up', sql`${t.pileUp} in (0, 3, 5, 10)`),
    check('follows_chapters', sql`${t.seenChapter} >= 0 and ${t.pileToldChapter} >= 0`),
    // The 攒更 check reads only the follows that asked for it.
    index('follows_piling').on(t.bookId).where(sql`${t.pileUp} > 0`),
  ],
);
