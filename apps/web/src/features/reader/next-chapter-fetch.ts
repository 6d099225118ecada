import type { QueryClient } from '@tanstack/react-query';
import { imageUrl } from '../../lib/images.ts';
import { readChapterQueryOptions } from './api/read-chapter.ts';
import { fetchImageAhead } from './fetch-image-ahead.ts';
import { type ConnectionHints, pagesAhead } from './next-chapter.ts';
import { pageImageWidth } from './reader-helpers.ts';

// The prefetch's work, loaded when the reader first nears a chapter's end (hooks/use-next-chapter-prefetch.ts), not
// with the reader's first screen.

/**
 * Asks the server for the next chapter (the same call 下一话 makes, which never buys anything) and, only if it
 * answers pages, fetches its first pages: fewer on a metered or save-data connection, none offline.
 */
export function fetchNextChapter(queryClient: QueryClient, bookId: number, nextNumber: number) {
  const connection = (navigator as Navigator & { connection?: ConnectionHints }).connection;
  const count = pagesAhead(connection, navigator.onLine);
  if (count === 0) return;
  void queryClient.fetchQuery(readChapterQueryOptions(bookId, nextNumber)).then(
    (answer) => {
      if (!answer.result || !answer.data) return;
      const width = pageImageWidth();
      const split = Math.max(1, answer.data.picSplitCount || 1);
      for (const path of answer.data.bookPics.slice(0, count * split)) fetchImageAhead(imageUrl(path, width));
    },
    () => undefined,
  );
}
