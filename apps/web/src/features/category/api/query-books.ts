import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { data, routes } from '../../../lib/api-client.ts';
import { nextPage } from '../../../lib/paging.ts';

export type PublishStatus = 'all' | 'finish' | 'serialize';

/** GET /api/book/query/{publishStatus}/{categoryId}/{page} (static); category 0 is all. */
export const fetchBooks = (publishStatus: PublishStatus, categoryId: number, page: number) =>
  data(routes.queryBooks, { params: { publishStatus, categoryId, page } });

export const booksOptions = (status: PublishStatus, categoryId: number) =>
  infiniteQueryOptions({
    queryKey: ['category-books', status, categoryId],
    queryFn: ({ pageParam }) => fetchBooks(status, categoryId, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => nextPage(last.totalPage, page),
  });

export const useBooks = (status: PublishStatus, categoryId: number) =>
  useInfiniteQuery(booksOptions(status, categoryId));
