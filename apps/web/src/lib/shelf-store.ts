import type { Book } from '@yueman/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export interface HistoryEntry {
  bookInfo: Book;
  /** The last chapter number read in this book. */
  number: number;
  /** When it was read, ms since the epoch. */
  date: number;
}

/** Favourites and reading history, kept on this device only (spec sections 3 and 4). */
interface ShelfState {
  favourites: Book[];
  history: HistoryEntry[];
  toggleFavourite(book: Book): void;
  isFavourite(bookId: number): boolean;
  recordReading(book: Book, number: number): void;
  lastRead(bookId: number): HistoryEntry | undefined;
}

export const useShelfStore = create<ShelfState>()(
  persist(
    (set, get) => ({
      favourites: [],
      history: [],
      toggleFavourite: (book) =>
        set((s) =>
          s.favourites.some((b) => b.bookId === book.bookId)
            ? { favourites: s.favourites.filter((b) => b.bookId !== book.bookId) }
            : { favourites: [book, ...s.favourites] },
        ),
      isFavourite: (bookId) => get().favourites.some((b) => b.bookId === bookId),
      // Newest first; one entry per book holding the last chapter read.
      recordReading: (book, number) =>
        set((s) => ({
          history: [
            { bookInfo: book, number, date: Date.now() },
            ...s.history.filter((h) => h.bookInfo.bookId !== book.bookId),
          ],
        })),
      lastRead: (bookId) => get().history.find((h) => h.bookInfo.bookId === bookId),
    }),
    { name: 'ym-shelf' },
  ),
);
