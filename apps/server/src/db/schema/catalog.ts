import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const categories = pgTable(
  'categories',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull().unique(),
    sort: integer().notNull().default(0),
  },
  (t) => [
    check(
      'categories_name_length',
      sql`char_length(${t.name}) <= ${sql.raw(String(BOOK_TEXT_LIMITS.category))}`,
    ),
  ],
);

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
    // An unpublished book is gone from lists, search and detail for readers (the search and count triggers skip
    // it); readers who bought chapters of it still read those.
    published: boolean().notNull().default(true),
    recommend: integer().notNull().default(0),
    readCount: integer().notNull().default(0),
    // The read-count bucket the search postings hold the book under (book_rank_bucket(read_count) when its text was
    // last indexed): a read never re-indexes; the search-buckets job moves books whose bucket changed, a few at a
    // time (migration 0017, docs/decisions.md "Read counts never re-index a book's text").
    indexedBucket: smallint().notNull().default(0),
    // Kept equal to the number of chapter rows by the catalogue repository, in the same transaction.
    chapterCount: integer().notNull().default(0),
    picSplitCount: integer().notNull().default(1),
    // Other names readers know the book by (nicknames, former titles, the original title), set in the console or
    // taken from ComicInfo's AlternateSeries/LocalizedSeries on import; bounded by books_aliases_bound.
    aliases: text().array().notNull().default(sql`'{}'::text[]`),
    // The search keys, computed in the server from title, author and aliases when they are written (search-keys.ts:
    // width, case, traditional characters, spaces and punctuation folded; the title's pinyin readings): never on a
    // read. Null when the text changed without them (a trigger nulls them): the search-keys job fills them again,
    // and meanwhile the postings use lower(text) (migration 0019, docs/decisions.md "Search the way readers type").
    searchTitle: text(),
    searchAuthor: text(),
    searchAliases: text(),
    // The folded title's readings, a token per character ("chong/zhong sheng"): what a suggestion highlights.
    searchPinyin: text(),
    // The folded description, computed by the database whenever the description is written (its fold, search_fold
    // of migration 0019: the server's keys are for title, author and aliases): a search compares it, never folds.
    searchAbout: text().generatedAlwaysAs(sql`search_fold(left(abstract_content, 2000))`),
    // The weekdays (ISO: 1 Monday … 7 Sunday, China time) the book usually releases on, set in the console: the
    // release calendar shows the book on those days besides the days its scheduled chapters come out.
    releaseDays: smallint().array().notNull().default(sql`'{}'::smallint[]`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('books_release_days', sql`${t.releaseDays} <@ '{1,2,3,4,5,6,7}'::smallint[]`),
    check('books_publish_status', sql`${t.publishStatus} in ('finish', 'serialize')`),
    check('books_pic_split_count', sql`${t.picSplitCount} between 1 and 4`),
    check('books_counts', sql`${t.readCount} >= 0 and ${t.chapterCount} >= 0 and ${t.recommend} >= 0`),
    // BOOK_TEXT_LIMITS, whoever writes the book.
    check(
      'books_text_length',
      sql`char_length(${t.title}) <= ${sql.raw(String(BOOK_TEXT_LIMITS.title))} and char_length(${t.author}) <= ${sql.raw(String(BOOK_TEXT_LIMITS.author))} and char_length(${t.abstractContent}) <= ${sql.raw(String(BOOK_TEXT_LIMITS.description))}`,
    ),
    check(
      'books_aliases_bound',
      sql`cardinality(${t.aliases}) <= ${sql.raw(String(BOOK_TEXT_LIMITS.aliases))} and char_length(array_to_string(${t.aliases}, '')) <= ${sql.raw(String(BOOK_TEXT_LIMITS.aliases * BOOK_TEXT_LIMITS.alias))}`,
    ),
    // Exact title and title prefix matches (the column is COLLATE "C": code point order, for prefix ranges).
    index('books_search_title').on(t.searchTitle).where(sql`${t.published}`),
    // The books whose search keys are to be computed: what the search-keys job fills.
    index('books_search_keys_missing').on(t.id).where(sql`${t.searchTitle} is null`),
    // The books whose postings' bucket is behind their read count: what the search-buckets job moves.
    index('books_bucket_behind').on(t.id).where(sql`${t.indexedBucket} <> book_rank_bucket(${t.readCount})`),
    index('books_by_filter').on(t.publishStatus, t.categoryId, t.readCount.desc(), t.id),
    index('books_by_category').on(t.categoryId, t.readCount.desc(), t.id),
    // The list of one publish status, all categories (/api/book/query/{status}/0/{page}).
    index('books_by_status').on(t.publishStatus, t.readCount.desc(), t.id),
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
    // SHA-256 of an imported chapter's stored pages, in order: a re-import of the same files changes nothing.
    contentHash: text(),
    // When a scheduled chapter comes out; null once it is out (the scheduled-chapters job nulls it at that time).
    // Readers never see a chapter with a publish time: not in lists, counts, reading or sale.
    publishAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.number] }),
    check('chapters_price', sql`${t.price} >= 0`),
    // The image host asks, per page request without a grant, whether a free chapter lists the page.
    index('chapters_pics').using('gin', t.pics),
    check('chapters_number', sql`${t.number} >= 1`),
    // The scheduled-chapters job's lookup: only the few chapters still waiting are in it.
    index('chapters_scheduled').on(t.publishAt).where(sql`${t.publishAt} is not null`),
  ],
);

/**
 * The search index (docs/decisions.md, "Search at 100,000 books"): for each gram, one or two characters of a
 * book's lowercased title, author or description, the ids of the books that have it, in posting lists keyed by
 * the first of those fields that has it (`tier`: 1 title, 2 aliases, 3 author, 4 description; migration 0019 made
 * the text the folded search keys) and the book's read-count
 * bucket (`indexed_bucket`: `book_rank_bucket(read_count)` when the book was last indexed or moved by the
 * search-buckets job; monotonic in the read count). Reading a gram's lists in (tier, bucket
 * desc) order gives its books in the search's order up to the bucket, so a page needs the lists up to the page's
 * last bucket only. Kept by triggers on books (migration 0006), whoever writes the books.
 */
export const bookPostings = pgTable(
  'book_postings',
  {
    gram: text().notNull(),
    tier: smallint().notNull(),
    bucket: smallint().notNull(),
    // cardinality(book_ids), kept beside the list so a page can be planned without reading the lists.
    n: integer().notNull(),
    bookIds: integer().array().notNull(),
  },
  (t) => [
    // The key, in the order a search reads a gram's lists: tier, then bucket from the top.
    uniqueIndex('book_postings_key').on(t.gram, t.tier, t.bucket.desc()),
    check('book_postings_tier', sql`${t.tier} between 1 and 4`),
    check('book_postings_n', sql`${t.n} = cardinality(${t.bookIds})`),
  ],
);

/**
 * Books per (publish status, category), kept by triggers on books (migration 0006): the lists' totals
 * (totalItem, totalPage) are sums of at most a few dozen of these rows, exact, without counting the books.
 */
export const bookCounts = pgTable(
  'book_counts',
  {
    publishStatus: text().notNull(),
    categoryId: integer().notNull(),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.publishStatus, t.categoryId] }), check('book_counts_n', sql`${t.n} >= 0`)],
);

/**
 * The chapter list of each book of 200 chapters or more, ready-made: the JSON chapter_list_json(book_id) answers,
 * kept by triggers on chapters (migration 0006). Building it for a 2,000-chapter book costs ~3 ms a call, reading it
 * ~1 ms; shorter books' lists are built when asked.
 */
export const chapterLists = pgTable('chapter_lists', {
  bookId: integer()
    .primaryKey()
    .references(() => books.id, { onDelete: 'cascade' }),
  list: json().notNull(),
});

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
    // An optional window: shown from starts_at, until ends_at (either null: open on that side).
    startsAt: timestamp({ withTimezone: true }),
    endsAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('ads_jump_type', sql`${t.jumpType} in (-1, -2, 2, 3)`),
    check('ads_window', sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.startsAt} < ${t.endsAt}`),
  ],
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

/**
 * Pinyin keys of each book (search-keys.ts): from each of the first characters of its folded title, aliases and
 * author, the full pinyin and the initials that follow, each polyphonic reading too, cut to the keyword limit. A
 * pinyin keyword is a prefix of one of them: a range of the key index (COLLATE "C", hand-written in migration 0019).
 * Written with the book's search keys; `tier` 5 title or alias, 6 author (the search's ranking).
 */
export const bookPinyinKeys = pgTable(
  'book_pinyin_keys',
  {
    key: text().notNull(),
    bookId: integer()
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    tier: smallint().notNull(),
    // The book's indexed_bucket while it is published, null while it is not (kept by the books' triggers): a
    // pinyin search ranks the keys it reads from the key index alone and reads only the books it returns.
    bucket: smallint(),
  },
  // The primary key's index also holds tier and bucket (INCLUDE, hand-written in migration 0019): a key range is
  // read from the index alone.
  (t) => [primaryKey({ columns: [t.key, t.bookId] }), index('book_pinyin_keys_book').on(t.bookId)],
);

/**
 * What readers searched for, per China-time day: page-1 searches and how many found nothing, counted in each
 * server's memory and added here every half minute (search-counts.ts). The console's hot-words screen reads it.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    day: date().notNull(),
    keyword: text().notNull(),
    searches: integer().notNull(),
    misses: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.keyword] })],
);
