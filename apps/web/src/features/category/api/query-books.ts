import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ListResponse } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';

export type PublishStatus = 'all' | 'finish' | 'serialize';

/** POST /api/book/query/{publishStatus}/{categoryId}/{page} (static); category 0 is all. */
export const fetchBooks = (status: PublishStatus, categoryId: number, page: number) =>
  data<ListResponse>('static', 'POST', `/api/book/query/${status}/${categoryId}/${page}`);

export const booksOptions = (status: PublishStatus, categoryId: number) =>
  infiniteQueryOptions({
    queryKey: ['category-books', status, categoryId],
    queryFn: ({ pageParam }) => fetchBooks(status, categoryId, pageParam),
    initialPageParam: 1,
    // No more data when totalPage is 0 or the current page is at or past it (spec section 4).
    getNextPageParam: (last, _all, page) =>
      last.totalPage === 0 || page >= last.totalPage ? undefined : page + 1,
  });

export const useBooks = (status: PublishStatus, categoryId: number) =>
  useInfiniteQuery(booksOptions(status, categoryId));
