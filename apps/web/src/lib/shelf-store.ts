import type { Book, Follow, PileUp } from '@yueman/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export interface HistoryEntry {
  bookInfo: Book;
  /** The last chapter number read in this book. */
  number: number;
  /** When it was read, ms since the epoch. */
  date: number;
}

/** What the account says of a followed book (追更), kept beside it on this device. */
export interface FollowMeta {
  /** The newest released chapter the reader has seen listed on the shelf. */
  seenChapter: number;
  /** The newest released chapter, as the account last said. */
  latestChapter: number;
  /** Released chapters after the one last read; null: not started. */
  unread: number | null;
  pileUp: PileUp;
  /** The account holds this follow (a follow on this device not yet there is sent at the next pull). */
  synced: boolean;
}

/**
 * Favourites (the books the reader follows, 追更) and reading history, kept on this device (spec sections 3 and 4);
 * the follows also on the account (follow-sync.ts).
 */
interface ShelfState {
  favourites: Book[];
  follows: Record<number, FollowMeta>;
  history: HistoryEntry[];
  /** The account's follows replace this device's (after this device's own were sent to it). */
  applyAccount(list: readonly Follow[]): void;
  setFollowMeta(bookId: number, meta: Partial<FollowMeta>): void;
  toggleFavourite(book: Book): void;
  isFavourite(bookId: number): boolean;
  recordReading(book: Book, number: number): void;
  lastRead(bookId: number): HistoryEntry | undefined;
}

export const useShelfStore = create<ShelfState>()(
  persist(
    (set, get) => ({
      favourites: [],
      follows: {},
      history: [],
      applyAccount: (list) => {
        // Nothing to change (the usual start): nothing written, so the stored shelf is left as it is.
        const { favourites, follows } = get();
        if (
          list.length === favourites.length &&
          list.every(
            (f, i) =>
              favourites[i]?.bookId === f.bookId &&
              follows[f.bookId]?.synced &&
              follows[f.bookId]?.seenChapter === f.seenChapter &&
              follows[f.bookId]?.latestChapter === f.latestChapter &&
              follows[f.bookId]?.unread === f.unread &&
              follows[f.bookId]?.pileUp === f.pileUp,
          )
        )
          return;
        // A follow made on this device that the account does not hold yet (its call still on the way, or failed and
        // to be sent at the next pull) stays: an answer that left before the tap must not take it back.
        const held = new Set(list.map((f) => f.bookId));
        const pending = favourites.filter((b) => !held.has(b.bookId) && !follows[b.bookId]?.synced);
        set({
          favourites: [...pending, ...list.map((f) => f.book)],
          follows: Object.fromEntries([
            ...pending.flatMap((b) => {
              const meta = follows[b.bookId];
              return meta ? [[b.bookId, meta] as const] : [];
            }),
            ...list.map(
              (f) =>
                [
                  f.bookId,
                  {
                    seenChapter: f.seenChapter,
                    latestChapter: f.latestChapter,
                    unread: f.unread,
                    pileUp: f.pileUp,
                    synced: true,
                  },
                ] as const,
            ),
          ]),
        });
      },
      setFollowMeta: (bookId, meta) =>
        set((s) => {
          const was: FollowMeta = s.follows[bookId] ?? {
            seenChapter: 0,
            latestChapter: 0,
            unread: null,
            pileUp: 0,
            synced: false,
          };
          return { follows: { ...s.follows, [bookId]: { ...was, ...meta } } };
        }),
      toggleFavourite: (book) =>
        set((s) => {
          // A follow made again starts unsynced: the account learns of it from this device's call.
          const { [book.bookId]: _dropped, ...follows } = s.follows;
          return s.favourites.some((b) => b.bookId === book.bookId)
            ? { favourites: s.favourites.filter((b) => b.bookId !== book.bookId), follows }
            : { favourites: [book, ...s.favourites], follows };
        }),
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
    { name: 'ym-shelf', version: 1, migrate: (old) => ({ follows: {}, ...(old as object) }) as ShelfState },
  ),
);

/** Any followed book with a chapter out since the reader last looked at the shelf: the shelf tab's red dot. */
export const hasNewChapters = (s: Pick<ShelfState, 'favourites' | 'follows'>) =>
  s.favourites.some((b) => {
    const f = s.follows[b.bookId];
    return !!f && f.latestChapter > f.seenChapter;
  });
