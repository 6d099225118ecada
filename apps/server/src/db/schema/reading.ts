import { index, integer, pgTable, primaryKey, real, timestamp } from 'drizzle-orm/pg-core';
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
