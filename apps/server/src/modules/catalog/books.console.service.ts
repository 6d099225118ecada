import type { BookStatus } from '@yueman/contract/admin';
import type { Queryable } from '../../db/client.ts';
import { notFound } from '../../shared/errors.ts';
import { consoleWindow } from '../../shared/pagination.ts';
import type { AuditEntry } from '../operators/index.ts';
import type { BookRow, ConsoleRepository } from './books.console.repository.ts';
import {
  bookChangedMeanwhile,
  bookHasBuyers,
  bookNotFound,
  categoryNotFound,
  chapterNotFound,
  nothingToChange,
} from './catalog.errors.ts';
import { recountChapters } from './scheduled-chapters.ts';
import { writeSearchKeys } from './search-keys.repository.ts';
import { searchKeysOf } from './search-keys.ts';
import { readUploadedImage } from './uploaded-image.ts';

/** Who makes a change, as the audit log records it. */
export interface Editor {
  operatorId: number;
  actor: string;
}

export interface ConsoleDeps {
  repo: ConsoleRepository;
  /** The audit log (the operators port), in the change's own transaction. */
  audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
  /** After a committed change readers must see: the kept static answers and page knowledge are dropped. */
  changed(): void;
}

/** The book fields the console edits, as the API names them. */
export interface BookChanges {
  title?: string;
  author?: string;
  description?: string;
  /** Other names readers search by; blanks and repeats dropped. */
  aliases?: string[];
  categoryId?: number;
  status?: 'finish' | 'serialize';
  vipFree?: boolean;
  /** False: gone from readers' lists, search and detail (buyers still read what they bought). */
  published?: boolean;
  /** The weekdays it usually releases on (1 Monday … 7 Sunday); repeats dropped, in order. */
  releaseDays?: number[];
}

export const bookView = (b: BookRow) => ({
  id: b.id,
  title: b.title,
  author: b.author,
  description: b.abstractContent,
  aliases: b.aliases,
  categoryId: b.categoryId,
  status: b.publishStatus as BookStatus,
  vipFree: b.vipFree,
  published: b.published,
  releaseDays: b.releaseDays,
  /** The cover's image path (the console previews it through /api/admin/image). */
  cover: b.cover,
  chapterCount: b.chapterCount,
  readCount: b.readCount,
  /** The version an edit must name: the book as this operator saw it. */
  version: b.updatedAt.toISOString(),
});

/** Aliases as saved: trimmed, blanks and repeats dropped, the order the operator gave. */
const cleanAliases = (aliases: string[]) => [
  ...new Set(aliases.map((a) => a.trim()).filter((a) => a !== '')),
];

/** The categories, in the readers' order. */
export const categories = (deps: ConsoleDeps) => deps.repo.categories();

/** A page of the console's book table, newest change first, with its filters. */
export async function listBooks(
  deps: ConsoleDeps,
  input: { page: number; size: number; q?: string; categoryId?: number; status?: 'finish' | 'serialize' },
) {
  const { page, size, q, categoryId, status } = input;
  const { rows, total } = await deps.repo.listBooks({
    q: q?.trim() || undefined,
    categoryId,
    status,
    ...consoleWindow({ page, size }),
  });
  const list = rows.map((b) => ({
    ...b,
    publishStatus: b.publishStatus as BookStatus,
    updatedAt: b.updatedAt.toISOString(),
  }));
  return { page, size, total, list };
}

export async function bookWithChapters(deps: ConsoleDeps, id: number) {
  const book = await deps.repo.book(id);
  if (!book) throw bookNotFound();
  const chapters = await deps.repo.chapters(id);
  return {
    ...bookView(book),
    chapters: chapters.map((c) => ({
      ...c,
      publishAt: c.publishAt?.toISOString() ?? null,
      createdAt: c.createdAt.toISOString(),
    })),
  };
}

/**
 * Saves an operator's edit of a book, if nobody saved it since they opened it (`version`): otherwise nothing is
 * written and they are told to reload. Search, lists and counts follow by the books' triggers.
 */
export async function editBook(
  deps: ConsoleDeps,
  input: { id: number; version: string; changes: BookChanges; editor: Editor },
) {
  const { changes } = input;
  const saved = await deps.repo.transaction(async (tx) => {
    const before = await deps.repo.book(input.id, tx, true);
    if (!before) throw bookNotFound();
    if (before.updatedAt.toISOString() !== input.version) throw bookChangedMeanwhile();
    if (changes.categoryId !== undefined && !(await deps.repo.categoryExists(changes.categoryId, tx))) {
      throw categoryNotFound();
    }
    const after = await deps.repo.updateBook(tx, input.id, {
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.author !== undefined ? { author: changes.author } : {}),
      ...(changes.description !== undefined ? { abstractContent: changes.description } : {}),
      ...(changes.aliases !== undefined ? { aliases: cleanAliases(changes.aliases) } : {}),
      ...(changes.categoryId !== undefined ? { categoryId: changes.categoryId } : {}),
      ...(changes.status !== undefined ? { publishStatus: changes.status } : {}),
      ...(changes.vipFree !== undefined ? { vipFree: changes.vipFree } : {}),
      ...(changes.published !== undefined ? { published: changes.published } : {}),
      ...(changes.releaseDays !== undefined
        ? { releaseDays: [...new Set(changes.releaseDays)].sort((a, b) => a - b) }
        : {}),
    });
    // Its search keys in the same transaction: the change is searchable at once (docs/decisions.md, "Search the
    // way readers type").
    if ((['title', 'author', 'aliases'] as const).some((f) => changes[f] !== undefined)) {
      await writeSearchKeys(tx, [{ text: after, keys: searchKeysOf(after) }]);
    }
    const { version: _b, ...beforeView } = bookView(before);
    const { version: _a, ...afterView } = bookView(after);
    await deps.audit(tx, {
      ...input.editor,
      action: 'book.edit',
      target: `book:${input.id}`,
      before: beforeView,
      after: afterView,
    });
    return after;
  });
  deps.changed();
  return bookView(saved);
}

/** A foreign key of a purchase or transfer stopped the delete (a purchase committed meanwhile). */
const isRestricted = (err: unknown) =>
  [err, (err as { cause?: unknown } | null)?.cause].some(
    (e) => (e as { code?: string } | null)?.code === '23503',
  );

/**
 * Deletes a book no reader has paid for (no purchase or coin transfer on any of its chapters), with its chapters:
 * an import that went wrong is cleaned up this way. A book with buyers is refused (409): unpublish it instead, so
 * they keep reading what they bought. Audited with the book as it was.
 */
export async function deleteBook(deps: ConsoleDeps, input: { id: number; editor: Editor }) {
  try {
    await deps.repo.transaction(async (tx) => {
      const before = await deps.repo.book(input.id, tx, true);
      if (!before) throw bookNotFound();
      if (await deps.repo.bookHasBuyers(tx, input.id)) throw bookHasBuyers();
      await deps.repo.deleteBook(tx, input.id);
      const { version: _v, ...beforeView } = bookView(before);
      await deps.audit(tx, {
        ...input.editor,
        action: 'book.delete',
        target: `book:${input.id}`,
        before: beforeView,
        after: null,
      });
    });
  } catch (err) {
    if (isRestricted(err)) throw bookHasBuyers();
    throw err;
  }
  deps.changed();
}

/**
 * Prices a whole book: the first `freeChapters` chapters free, every later one `price` coins. Chapters already bought
 * stay bought (purchases are their own rows); only what is not yet bought costs the new price.
 */
export async function priceBook(
  deps: ConsoleDeps,
  input: { id: number; freeChapters: number; price: number; editor: Editor },
) {
  await deps.repo.transaction(async (tx) => {
    if (!(await deps.repo.book(input.id, tx, true))) throw bookNotFound();
    const before = await deps.repo.lockChapters(tx, input.id);
    await deps.repo.priceBook(tx, input.id, input.freeChapters, input.price);
    const after = before.map((c) => ({
      number: c.number,
      price: c.number <= input.freeChapters ? 0 : input.price,
    }));
    await deps.audit(tx, {
      ...input.editor,
      action: 'book.pricing',
      target: `book:${input.id}`,
      before: before.map(({ number, price }) => ({ number, price })),
      after,
    });
  });
  deps.changed();
  return bookWithChapters(deps, input.id);
}

/**
 * One chapter's title, price or publish time. A time in the future hides the chapter from readers until then (the
 * scheduled-chapters job lets it out); null or a time already passed lets it out now, and the book moves to the top
 * of the daily-update list.
 */
export async function editChapter(
  deps: ConsoleDeps,
  input: {
    bookId: number;
    number: number;
    title?: string;
    price?: number;
    publishAt?: string | null;
    editor: Editor;
  },
  now = new Date(),
) {
  const at = input.publishAt ? new Date(input.publishAt) : null;
  const publishAt = at && at > now ? at : null;
  const changes = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.price !== undefined ? { price: input.price } : {}),
    ...(input.publishAt !== undefined ? { publishAt } : {}),
  };
  // A body of unknown keys only passes the schema (they are dropped) and would be an update of no column.
  if (Object.keys(changes).length === 0) throw nothingToChange();
  const saved = await deps.repo.transaction(async (tx) => {
    if (!(await deps.repo.book(input.bookId, tx, true))) throw bookNotFound();
    const [before] = await deps.repo.lockChapters(tx, input.bookId, input.number);
    if (!before) throw chapterNotFound();
    const after = await deps.repo.updateChapter(tx, input.bookId, input.number, changes);
    if (input.publishAt !== undefined) {
      // Out now after waiting: a new chapter for the daily-update list. Scheduled (again): counted out.
      await recountChapters(tx, [input.bookId], before.publishAt !== null && publishAt === null);
    }
    await deps.audit(tx, {
      ...input.editor,
      action: 'chapter.edit',
      target: `chapter:${input.bookId}/${input.number}`,
      before,
      after,
    });
    return after;
  });
  deps.changed();
  if (!saved) throw chapterNotFound();
  return { ...saved, publishAt: saved.publishAt?.toISOString() ?? null };
}

/** A stored image (a cover, an ad, a page) as WebP at a preview width; 404 when there is none. */
export async function previewImage(
  deps: { preview(imagePath: string, width: number): Promise<Buffer | undefined | null> },
  input: { path: string; w: number },
) {
  const webp = await deps.preview(input.path, input.w);
  if (!webp) throw notFound('图片不存在');
  return webp;
}

/**
 * A new cover from an uploaded picture: kept as an original under covers/uploads/, named by its content (a new cover
 * is a new path, so no cache anywhere serves the old picture for it), and audited.
 */
export async function setCover(
  deps: ConsoleDeps & { putOriginal(imagePath: string, bytes: Buffer): Promise<unknown> },
  input: { id: number; receive(): Promise<{ file: Buffer }>; editor: Editor },
) {
  // A missing book is told before the upload is read.
  if (!(await deps.repo.book(input.id))) throw bookNotFound();
  const image = await readUploadedImage((await input.receive()).file, 'image');
  const cover = `covers/uploads/${input.id}/${image.hash}.${image.ext}`;
  await deps.putOriginal(cover, image.bytes);
  const saved = await deps.repo.transaction(async (tx) => {
    const before = await deps.repo.book(input.id, tx, true);
    if (!before) throw bookNotFound();
    await deps.repo.addImage(tx, { path: cover, width: image.width, height: image.height });
    const after = await deps.repo.updateBook(tx, input.id, { cover, horiCover: cover });
    await deps.audit(tx, {
      ...input.editor,
      action: 'book.cover',
      target: `book:${input.id}`,
      before: { cover: before.cover },
      after: { cover },
    });
    return after;
  });
  deps.changed();
  return { book: bookView(saved) };
}
