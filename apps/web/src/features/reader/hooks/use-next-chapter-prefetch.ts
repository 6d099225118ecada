import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { imageUrl } from '../../../lib/images.ts';
import { readChapterQueryOptions } from '../api/read-chapter.ts';
import { type ConnectionHints, pagesAhead } from '../next-chapter.ts';
import { pageImageWidth } from '../reader-helpers.ts';

/** Near the chapter's end: the last pages' rows, or the end block, within this much below the screen. */
const NEAR_END = '0px 0px 100% 0px';

const fetched = new Set<string>();
function fetchImage(url: string) {
  if (fetched.has(url)) return;
  fetched.add(url);
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
}

/**
 * Paywall-aware prefetch: when the reader nears the chapter's end, the server is asked for the next chapter (the
 * same call 下一话 makes, which never buys anything) and only if it answers pages (free, owned, VIP-free for a VIP)
 * are its first pages fetched, fewer on a metered or save-data connection. A chapter that needs buying answers no
 * pages, so nothing the server would refuse is fetched; with auto-buy on it is bought when opened, not before.
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
        const connection = (navigator as Navigator & { connection?: ConnectionHints }).connection;
        const count = pagesAhead(connection, navigator.onLine);
        if (count === 0) return;
        void queryClient.fetchQuery(readChapterQueryOptions(bookId, nextNumber)).then(
          (answer) => {
            if (!answer.result || !answer.data) return;
            const width = pageImageWidth();
            const split = Math.max(1, answer.data.picSplitCount || 1);
            for (const path of answer.data.bookPics.slice(0, count * split))
              fetchImage(imageUrl(path, width));
          },
          () => undefined,
        );
      },
      { rootMargin: NEAR_END },
    );
    io.observe(end);
    return () => io.disconnect();
  }, [bookId, nextNumber, ready, queryClient]);
}
