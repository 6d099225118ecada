import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** Books whose next chapters are bought without asking (spec section 3: auto-buy list, kept locally). */
interface AutoBuyState {
  bookIds: number[];
  toggle(bookId: number): void;
}

export const useAutoBuyStore = create<AutoBuyState>()(
  persist(
    (set) => ({
      bookIds: [],
      toggle: (bookId) =>
        set((s) => ({
          bookIds: s.bookIds.includes(bookId)
            ? s.bookIds.filter((id) => id !== bookId)
            : [...s.bookIds, bookId],
        })),
    }),
    { name: 'ym-auto-buy' },
  ),
);
