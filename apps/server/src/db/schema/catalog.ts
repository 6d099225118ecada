import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const categories = pgTable('categories', {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  name: text().notNull().unique(),
  sort: integer().notNull().default(0),
});

export const books = pgTable(
  'books',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    title: text().notNull(),
    author: text().notNull(),
    cover: text().notNull(),
    horiCover: text().notNull(),
    abstractContent: text().notNull().default(''),
    categoryId: integer()
      .notNull()
      .references(() => categories.id),
    // 'finish' or 'serialize'; the spec labels any other value as ongoing, we store only these two.
    publishStatus: text().notNull(),
    // VIP readers read a VIP-free book's priced chapters without paying.
    vipFree: boolean().notNull().default(true),
    recommend: integer().notNull().default(0),
    readCount: integer().notNull().default(0),
    // Kept equal to the number of chapter rows by the catalogue repository, in the same transaction.
    chapterCount: integer().notNull().default(0),
    picSplitCount: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('books_publish_status', sql`${t.publishStatus} in ('finish', 'serialize')`),
    check('books_pic_split_count', sql`${t.picSplitCount} between 1 and 4`),
    check('books_counts', sql`${t.readCount} >= 0 and ${t.chapterCount} >= 0 and ${t.recommend} >= 0`),
    index('books_by_filter').on(t.publishStatus, t.categoryId, t.readCount.desc(), t.id),
    index('books_by_category').on(t.categoryId, t.readCount.desc(), t.id),
    index('books_by_read_count').on(t.readCount.desc(), t.id),
    index('books_by_updated').on(t.updatedAt.desc(), t.id),
    index('books_by_created').on(t.createdAt.desc(), t.id),
  ],
);

export const chapters = pgTable(
  'chapters',
  {
    // chapterId in the spec; the natural key is (bookId, number).
    id: integer().notNull().unique().generatedByDefaultAsIdentity(),
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    title: text().notNull(),
    cover: text().notNull(),
    // Price in whole coins (阅币); 0 is free.
    price: integer().notNull().default(0),
    // Page image paths in reading order (docs/api.md section 5).
    pics: text().array().notNull().default(sql`'{}'::text[]`),
    content: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.number] }),
    check('chapters_price', sql`${t.price} >= 0`),
    // The image host asks, per page request without a grant, whether a free chapter lists the page.
    index('chapters_pics').using('gin', t.pics),
    check('chapters_number', sql`${t.number} >= 1`),
  ],
);

// Curated lists: e_recommend, new, hot, kkbg, new_on (spec section 7, showcase detail).
export const showcaseEntries = pgTable(
  'showcase_entries',
  {
    type: text().notNull(),
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    sort: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.type, t.bookId] }),
    index('showcase_by_sort').on(t.type, t.sort),
    check('showcase_type', sql`${t.type} in ('e_recommend', 'new', 'hot', 'kkbg', 'new_on')`),
  ],
);

export const ads = pgTable(
  'ads',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    // -1 same window url, -2 new tab url, 2 book bizId, 3 recharge centre.
    jumpType: integer().notNull(),
    bizId: integer(),
    url: text().notNull().default(''),
    imgPath: text().notNull(),
    sort: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [check('ads_jump_type', sql`${t.jumpType} in (-1, -2, 2, 3)`)],
);

export const hotWords = pgTable(
  'hot_words',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    word: text().notNull(),
    sort: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('hot_words_word').on(t.word)],
);
