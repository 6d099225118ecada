import { queryOptions, useQuery } from '@tanstack/react-query';
import { routes } from '../api-client.ts';
import { earlyData, earlyDataNow } from '../early-data.ts';

/**
 * GET /api/book/detail/{bookId} (static): the book, every chapter, the last chapter and recommendations. The book
 * page shows it all; the reader keeps its Book for the shelf and reading history. Landing on the book page, the
 * answer index.html started early is used.
 */
export const getBookDetail = (bookId: number) => earlyData(routes.bookDetail, { params: { bookId } });

export const bookDetailQueryOptions = (bookId: number) =>
  queryOptions({
    queryKey: ['book', 'detail', bookId],
    queryFn: () => getBookDetail(bookId),
    // Landing on the book page, the answer in the page is the first frame's data.
    initialData: () => earlyDataNow(routes.bookDetail, { params: { bookId } }),
    // An unknown book (404) will not appear on a retry.
    retry: false,
  });

export const useBookDetail = (bookId: number, enabled = true) =>
  useQuery({ ...bookDetailQueryOptions(bookId), enabled });
