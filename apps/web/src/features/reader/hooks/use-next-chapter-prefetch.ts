import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/** The prefetch's work: loaded when idle with the reader's other later parts (reader-page.tsx), or when first needed. */
export const loadNextChapterFetch = () => import('../next-chapter-fetch.ts');

/** Near the chapter's end: the last pages' rows, or the end block, within this much below the screen. */
const NEAR_END = '0px 0px 100% 0px';

/**
 * Paywall-aware prefetch: when the reader nears the chapter's end, the server is asked for the next chapter (the
 * same call 下一话 makes, which never buys anything) and only if it answers pages (free, owned, VIP-free for a VIP)
 * are its first pages fetched, fewer on a metered or save-data connection (next-chapter-fetch.ts, loaded then). A
 * chapter that needs buying answers no pages, so nothing the server would refuse is fetched; with auto-buy on it is
 * bought when opened, not before.
 */
export function useNextChapterPrefetch(bookId: number, nextNumber: number, ready: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!ready || !nextNumber || typeof IntersectionObserver === 'undefined') return;
    const end = document.querySelector('.reader-end');
    if (!end) return;
    let done = false;
    const io = new IntersectionObserver(
      (entries) => {
        if (done || !entries.some((e) => e.isIntersecting)) return;
        done = true;
        io.disconnect();
        void loadNextChapterFetch().then(
          (m) => m.fetchNextChapter(queryClient, bookId, nextNumber),
          // Not loaded (the network dropped): 下一话 loads the chapter itself.
          () => undefined,
        );
      },
      { rootMargin: NEAR_END },
    );
    io.observe(end);
    return () => io.disconnect();
  }, [bookId, nextNumber, ready, queryClient]);
}
