import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BookDetail } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';

/** GET /api/book/detail/{bookId} (static): the book, every chapter, the last chapter and recommendations. */
export const getBookDetail = (bookId: number) =>
  data<BookDetail>('static', 'GET', `/api/book/detail/${bookId}`);

export const bookDetailQueryOptions = (bookId: number) =>
  queryOptions({
    queryKey: ['book', 'detail', bookId],
    queryFn: () => getBookDetail(bookId),
    // An unknown book (404) will not appear on a retry.
    retry: false,
  });

export const useBookDetail = (bookId: number, enabled = true) =>
  useQuery({ ...bookDetailQueryOptions(bookId), enabled });
