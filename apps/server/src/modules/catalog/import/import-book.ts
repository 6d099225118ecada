import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { books, categories, chapters, imageAssets } from '../../../db/schema/index.ts';
import { preparePage, type StoredPage } from './import-pages.ts';
import type { BookSource, ChapterSource } from './import-source.ts';

export interface ImportOptions {
  /** Into this book (else the book whose title matches, else a new one). */
  bookId?: number;
  /** The book's title, over what the files say (ComicInfo's Series, else the folder's or archive's name). */
  title?: string;
  /** Chapters numbered up to this are free; later ones cost `price` (both absent: every chapter free). */
  freeChapters?: number;
  price?: number;
  /** VIP readers read the book's priced chapters free. */
  vipFree?: boolean;
  /** Print the plan, write nothing. */
  dryRun?: boolean;
  /** A chapter number that exists with different pages is replaced (else refused). */
  replace?: boolean;
}

export interface ImportDeps {
  db: Database;
  /** Writes an original image (the storage port's put under originals/). */
  putOriginal(path: string, bytes: Buffer): Promise<unknown>;
  /** One page read, decoded and stored: for a progress bar. */
  progress?(done: number, total: number): void;
}

export type ChapterOutcome = 'added' | 'unchanged' | 'replaced' | 'planned';

export interface ImportReport {
  bookId: number | null;
  title: string;
  created: boolean;
  chapters: { number: number; title: string; pages: number; price: number; outcome: ChapterOutcome }[];
}

/** A chapter that cannot be imported as asked: the import stops there, chapters before it stay. */
export class ImportRefused extends Error {}

const DEFAULT_CATEGORY = '其他';

const titleOf = (source: BookSource, opts: ImportOptions) => opts.title?.trim() || source.title;

const priceOf = (number: number, opts: ImportOptions) =>
  opts.price !== undefined && number > (opts.freeChapters ?? 0) ? opts.price : 0;

/** The book's id: the one asked for, the one with this title, or a new one. */
async function findOrCreateBook(db: Database, source: BookSource, opts: ImportOptions) {
  if (opts.bookId !== undefined) {
    const [found] = await db.select().from(books).where(eq(books.id, opts.bookId));
    if (!found) throw new ImportRefused(`书籍 ${opts.bookId} 不存在`);
    return { book: found, created: false };
  }
  const [same] = await db
    .select()
    .from(books)
    .where(eq(books.title, titleOf(source, opts)))
    .limit(1);
  if (same) return { book: same, created: false };
  return db.transaction(async (tx) => {
    const categoryName = source.genre ?? DEFAULT_CATEGORY;
    await tx.insert(categories).values({ name: categoryName }).onConflictDoNothing();
    const [category] = await tx.select().from(categories).where(eq(categories.name, categoryName));
    const [book] = await tx
      .insert(books)
      .values({
        title: titleOf(source, opts),
        author: source.author ?? '',
        abstractContent: source.summary ?? '',
        categoryId: (category as { id: number }).id,
        publishStatus: source.finished ? 'finish' : 'serialize',
        vipFree: opts.vipFree ?? false,
        cover: '',
        horiCover: '',
      })
      .returning();
    return { book: book as typeof books.$inferSelect, created: true };
  });
}

/** The chapters by number; the same number twice is refused. */
function chaptersInOrder(source: BookSource) {
  const ordered = [...source.chapters].sort((a, b) => a.number - b.number);
  const numbers = ordered.map((c) => c.number);
  const repeated = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (repeated !== undefined) throw new ImportRefused(`第${repeated}话 出现了两次：每个章节号只能有一个`);
  return ordered;
}

/** What an import would do (--dry-run): the book's title and each chapter's number, title, pages and price. */
export function planImport(source: BookSource, opts: ImportOptions): ImportReport {
  return {
    bookId: opts.bookId ?? null,
    title: titleOf(source, opts),
    created: false,
    chapters: chaptersInOrder(source).map((c) => ({
      number: c.number,
      title: c.title,
      pages: c.pages.length,
      price: priceOf(c.number, opts),
      outcome: 'planned' as const,
    })),
  };
}

/**
 * A chapter's pages as stored (tall pages cut) may not pass this: no comic chapter has that many, and each is a row
 * of `pics`, a file and a request in the reader.
 */
export const MAX_CHAPTER_PAGES = 1000;

const tooManyPages = (chapter: ChapterSource) =>
  new ImportRefused(
    `${chapter.label}: 超过 ${MAX_CHAPTER_PAGES} 页（长图切分后计），不像一话漫画：请分成几话或检查图片`,
  );

/** Every page of a chapter decoded, cut if tall, in order, and the hash of what will be stored. */
async function prepareChapter(chapter: ChapterSource, onPage: () => void) {
  if (chapter.pages.length > MAX_CHAPTER_PAGES) throw tooManyPages(chapter);
  const pages: StoredPage[] = [];
  const hash = createHash('sha256');
  for (const page of chapter.pages) {
    let bytes: Buffer;
    try {
      bytes = await page.read();
    } catch (err) {
      throw new ImportRefused(`${page.label}: 读取失败（${(err as Error).message}）`);
    }
    for (const part of await preparePage(bytes, page.label)) {
      pages.push(part);
      hash.update(part.bytes);
    }
    if (pages.length > MAX_CHAPTER_PAGES) throw tooManyPages(chapter);
    onPage();
  }
  return { pages, hash: hash.digest('hex') };
}

/**
 * Imports a book read by import-source.ts. Chapters in number order; each is decoded and stored whole before its row
 * is written, in one transaction with the book's chapter count: a reader sees a chapter with all its pages or not at
 * all, and an import stopped anywhere (a bad page, a crash) leaves no half chapter. Re-importing the same files
 * changes nothing (the stored pages' hash); a new number is added; the same number with other pages is refused
 * unless `replace`.
 */
export async function importBook(
  deps: ImportDeps,
  source: BookSource,
  opts: ImportOptions,
): Promise<ImportReport> {
  const ordered = chaptersInOrder(source);
  if (opts.dryRun) return planImport(source, opts);
  const { db } = deps;
  const { book, created } = await findOrCreateBook(db, source, opts);
  const report: ImportReport = { bookId: book.id, title: book.title, created, chapters: [] };
  const total = ordered.reduce((n, c) => n + c.pages.length, 0);
  let done = 0;
  let cover = book.cover;
  try {
    for (const chapter of ordered) {
      const { pages, hash } = await prepareChapter(chapter, () => deps.progress?.(++done, total));
      const [existing] = await db
        .select({ hash: chapters.contentHash })
        .from(chapters)
        .where(and(eq(chapters.bookId, book.id), eq(chapters.number, chapter.number)));
      const price = priceOf(chapter.number, opts);
      const line = { number: chapter.number, title: chapter.title, pages: pages.length, price };
      if (existing && existing.hash === hash) {
        report.chapters.push({ ...line, outcome: 'unchanged' });
        continue;
      }
      if (existing && !opts.replace) {
        throw new ImportRefused(
          `第${chapter.number}话 已存在且内容不同（${chapter.label}）：确认替换请加 --replace`,
        );
      }
      // Stored under the content's hash: a replaced chapter's old pages stay until no one reads them.
      const dir = `pages/imports/${book.id}/${chapter.number}-${hash.slice(0, 16)}`;
      const paths = pages.map((p, i) => `${dir}/${i + 1}.${p.ext}`);
      for (const [i, page] of pages.entries()) await deps.putOriginal(paths[i] as string, page.bytes);
      if (!cover) {
        cover = `covers/imports/${book.id}/cover.${pages[0]?.ext}`;
        await deps.putOriginal(cover, (pages[0] as StoredPage).bytes);
      }
      await db.transaction(async (tx) => {
        await tx
          .insert(imageAssets)
          .values(pages.map((p, i) => ({ path: paths[i] as string, width: p.width, height: p.height })))
          .onConflictDoNothing();
        // A chapter's thumbnail is the book's cover: a page of a priced chapter would need a grant.
        const row = { title: chapter.title, cover, price, pics: paths, contentHash: hash };
        if (existing) {
          await tx
            .update(chapters)
            .set(row)
            .where(and(eq(chapters.bookId, book.id), eq(chapters.number, chapter.number)));
        } else {
          await tx.insert(chapters).values({ ...row, bookId: book.id, number: chapter.number });
        }
        await tx
          .update(books)
          .set({
            chapterCount: sql`(select count(*) from ${chapters} where ${chapters.bookId} = ${book.id} and ${chapters.publishAt} is null)`,
            updatedAt: sql`now()`,
            ...(book.cover ? {} : { cover, horiCover: cover }),
          })
          .where(eq(books.id, book.id));
      });
      report.chapters.push({ ...line, outcome: existing ? 'replaced' : 'added' });
    }
  } catch (err) {
    // The chapters imported before the failure stay: the caller audits and reports them.
    if (err instanceof Error) Object.assign(err, { partialReport: report });
    throw err;
  }
  return report;
}

/** What an import that failed had already done (its chapters before the failure), if it got that far. */
export const partialReportOf = (err: unknown): ImportReport | undefined =>
  (err as { partialReport?: ImportReport } | null)?.partialReport;
