import { createHash } from 'node:crypto';
import { BOOK_TEXT_LIMITS, clampText } from '@yueman/contract';
import { preparePage, type StoredPage } from './import-pages.ts';
import {
  type BookSource,
  type ChapterSource,
  type PageSource,
  unreadableFileReason,
} from './import-source.ts';
import type { ImportOptions, ImportReport } from './importer.port.ts';

export type { ImportOptions, ImportReport } from './importer.port.ts';

import type { BookRow, ImporterRepository } from './importer.repository.ts';

export interface ImportDeps {
  repo: ImporterRepository;
  /** Writes an original image (the storage port's put under originals/). */
  putOriginal(path: string, bytes: Buffer): Promise<unknown>;
  /** One page read, decoded and stored: for a progress bar. */
  progress?(done: number, total: number): void;
}

/** A chapter that cannot be imported as asked: the import stops there, chapters before it stay. */
export class ImportRefused extends Error {}

const DEFAULT_CATEGORY = '其他';

const titleOf = (source: BookSource, opts: ImportOptions) =>
  clampText(opts.title?.trim() || source.title, BOOK_TEXT_LIMITS.title);

const priceOf = (number: number, opts: ImportOptions) =>
  opts.price !== undefined && number > (opts.freeChapters ?? 0) ? opts.price : 0;

/**
 * The book asked for, or the one with this title; else a new book's id, taken from the books' sequence but not yet
 * written: the book (and its category, when new) is inserted with its first chapter, in that chapter's transaction
 * (createBook), so an import that fails or is killed before its first chapter leaves no empty book or category for
 * readers to find.
 */
async function findBook(
  repo: ImporterRepository,
  source: BookSource,
  opts: ImportOptions,
): Promise<{ book: BookRow; exists: boolean }> {
  if (opts.bookId !== undefined) {
    const found = await repo.bookById(opts.bookId);
    if (!found) throw new ImportRefused(`书籍 ${opts.bookId} 不存在`);
    return { book: found, exists: true };
  }
  const same = await repo.bookByTitle(titleOf(source, opts));
  if (same) return { book: same, exists: true };
  const book = {
    id: await repo.nextBookId(),
    title: titleOf(source, opts),
    author: source.author ?? '',
    // Keyed for search with the book's row, as the first chapter is written (importer.repository.ts).
    aliases: [...new Set(source.aliases ?? [])].filter((a) => a !== source.title),
    abstractContent: source.summary ?? '',
    publishStatus: source.finished ? 'finish' : 'serialize',
    vipFree: opts.vipFree ?? false,
    cover: '',
    horiCover: '',
  };
  return { book: book as BookRow, exists: false };
}

/**
 * The cover of a book that has none yet (covers need no grant: a page of a priced chapter must never be one): the
 * archive's own cover image, else the first page of a free chapter, else none (an operator sets it).
 */
async function coverPage(
  source: BookSource,
  chapterPages: StoredPage[],
  price: number,
  tried: { archive: boolean },
) {
  if (source.cover && !tried.archive) {
    tried.archive = true;
    const page = await readCover(source.cover);
    if (page) return page;
  }
  return price === 0 ? chapterPages[0] : undefined;
}

/** The archive's cover image decoded as a page (its first part when tall); undefined when it cannot be read. */
async function readCover(cover: PageSource) {
  try {
    const [first] = await preparePage(await cover.read(), cover.label);
    return first;
  } catch {
    return undefined;
  }
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
 * What an import would do, checked against the database as the import itself would (a dry run beside the data): the
 * book found by id or title (a new book's id is not taken), a chapter whose number exists with the same pages
 * `unchanged`, with other pages `replaced` under `replace` (else refused, as the import would), and a new number
 * `planned`. Only chapters whose number exists are decoded (to compare their pages); nothing is written.
 */
export async function planAgainst(
  repo: ImporterRepository,
  source: BookSource,
  opts: ImportOptions,
): Promise<ImportReport> {
  const ordered = chaptersInOrder(source);
  let book: BookRow | undefined;
  if (opts.bookId !== undefined) {
    book = await repo.bookById(opts.bookId);
    if (!book) throw new ImportRefused(`书籍 ${opts.bookId} 不存在`);
  } else {
    book = await repo.bookByTitle(titleOf(source, opts));
  }
  if (!book) return planImport(source, opts);
  const report: ImportReport = { bookId: book.id, title: book.title, created: false, chapters: [] };
  for (const chapter of ordered) {
    const price = priceOf(chapter.number, opts);
    const existing = await repo.chapterHash(book.id, chapter.number);
    if (!existing) {
      const line = { number: chapter.number, title: chapter.title, pages: chapter.pages.length, price };
      report.chapters.push({ ...line, outcome: 'planned' });
      continue;
    }
    const { pages, hash } = await prepareChapter(chapter, () => undefined);
    const line = { number: chapter.number, title: chapter.title, pages: pages.length, price };
    if (existing.hash === hash) {
      report.chapters.push({ ...line, outcome: 'unchanged' });
      continue;
    }
    if (!opts.replace) throw changedChapter(chapter);
    report.chapters.push({ ...line, outcome: 'replaced' });
  }
  return report;
}

const changedChapter = (chapter: ChapterSource) =>
  new ImportRefused(`第${chapter.number}话 已存在且内容不同（${chapter.label}）：确认替换请加 --replace`);

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
      throw new ImportRefused(`${page.label}: 读取失败（${unreadableFileReason(err)}）`, { cause: err });
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
  if (opts.dryRun) return planAgainst(deps.repo, source, opts);
  const { repo } = deps;
  const found = await findBook(repo, source, opts);
  const { book } = found;
  let exists = found.exists;
  const report: ImportReport = { bookId: book.id, title: book.title, created: false, chapters: [] };
  const total = ordered.reduce((n, c) => n + c.pages.length, 0);
  let done = 0;
  let cover = book.cover;
  const coverTried = { archive: false };
  try {
    for (const chapter of ordered) {
      const { pages, hash } = await prepareChapter(chapter, () => deps.progress?.(++done, total));
      const existing = exists ? await repo.chapterHash(book.id, chapter.number) : undefined;
      const price = priceOf(chapter.number, opts);
      const line = { number: chapter.number, title: chapter.title, pages: pages.length, price };
      if (existing && existing.hash === hash) {
        report.chapters.push({ ...line, outcome: 'unchanged' });
        continue;
      }
      if (existing && !opts.replace) throw changedChapter(chapter);
      // Stored under the content's hash: a replaced chapter's old pages stay until no one reads them.
      const dir = `pages/imports/${book.id}/${chapter.number}-${hash.slice(0, 16)}`;
      const paths = pages.map((p, i) => `${dir}/${i + 1}.${p.ext}`);
      for (const [i, page] of pages.entries()) await deps.putOriginal(paths[i] as string, page.bytes);
      const coverBefore = cover;
      if (!cover) {
        const page = await coverPage(source, pages, price, coverTried);
        if (page) {
          cover = `covers/imports/${book.id}/cover.${page.ext}`;
          await deps.putOriginal(cover, page.bytes);
        }
      }
      // The new book (and its category when new) is written with its first chapter, in one transaction.
      await repo.writeChapter({
        newBook: exists ? undefined : { book, category: source.genre ?? DEFAULT_CATEGORY },
        pages: pages.map((p, i) => ({ path: paths[i] as string, width: p.width, height: p.height })),
        bookId: book.id,
        number: chapter.number,
        replace: existing !== undefined,
        // A chapter's thumbnail is the book's cover: a page of a priced chapter would need a grant.
        row: { title: chapter.title, cover, price, pics: paths, contentHash: hash },
        newCover: coverBefore === cover ? undefined : cover,
      });
      if (!exists) {
        exists = true;
        report.created = true;
      }
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
