import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BookDetail } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';
import { takeEarly } from '../../../lib/early-data.ts';

/** GET /api/book/detail/{bookId} (static): the book, every chapter, the last chapter and recommendations. */
export async function getBookDetail(bookId: number): Promise<BookDetail> {
  const path = `/api/book/detail/${bookId}`;
  return (await takeEarly<BookDetail>(path)) ?? data<BookDetail>('static', 'GET', path);
}

export const bookDetailQueryOptions = (bookId: number) =>
  queryOptions({
    queryKey: ['book', 'detail', bookId],
    queryFn: () => getBookDetail(bookId),
    // An unknown book (404) will not appear on a retry.
    retry: false,
  });

export const useBookDetail = (bookId: number, enabled = true) =>
  useQuery({ ...bookDetailQueryOptions(bookId), enabled });
