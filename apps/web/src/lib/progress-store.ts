import type { ReadingProgress } from '@yueman/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** How many books' positions this device keeps (the oldest are dropped): more than a history shows. */
const KEEP = 300;

/**
 * Where the reader stopped in each book, to the page and the position within it: kept on this device and on the
 * account (progress-sync.ts), the later one winning by when the reader was there.
 */
interface ProgressState {
  positions: Record<number, ReadingProgress>;
  /** Keeps a position unless one at least as late is kept. */
  record(p: ReadingProgress): void;
  /** The account's positions, merged: each book keeps the later. */
  merge(list: readonly ReadingProgress[]): void;
}

const later = (a: ReadingProgress | undefined, b: ReadingProgress) => (a && a.readAt >= b.readAt ? a : b);

export const useProgressStore = create<ProgressState>()(
  persist(
    (set) => ({
      positions: {},
      record: (p) =>
        set((s) => ({ positions: trimmed({ ...s.positions, [p.bookId]: later(s.positions[p.bookId], p) }) })),
      merge: (list) =>
        set((s) => {
          const positions = { ...s.positions };
          for (const p of list) positions[p.bookId] = later(positions[p.bookId], p);
          return { positions: trimmed(positions) };
        }),
    }),
    { name: 'ym-progress', version: 1 },
  ),
);

function trimmed(positions: Record<number, ReadingProgress>) {
  const all = Object.values(positions);
  if (all.length <= KEEP) return positions;
  return Object.fromEntries(
    all
      .sort((a, b) => b.readAt - a.readAt)
      .slice(0, KEEP)
      .map((p) => [p.bookId, p]),
  );
}

/** Where to resume a book, if the reader got past a chapter's first page top. */
export const positionOf = (bookId: number): ReadingProgress | undefined =>
  useProgressStore.getState().positions[bookId];

/** 第N话 第M页, as the detail page and the shelf say where the reader stopped. */
export const positionLabel = (p: Pick<ReadingProgress, 'chapterNumber' | 'pageNumber'>) =>
  `第${p.chapterNumber}话 第${p.pageNumber}页`;
