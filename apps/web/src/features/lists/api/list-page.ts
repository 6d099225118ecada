import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ListResponse, ShowcaseType } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';

/** Which call feeds a 'more' list: a showcase type, or the daily-update call (docs/decisions.md). */
export type ListSource = ShowcaseType | 'update';

/** GET /api/book/showcase/detail/{type}/{page}, or GET /api/book/new/{page} for daily updates. */
export function fetchListPage(source: ListSource, page: number): Promise<ListResponse> {
  const path = source === 'update' ? `/api/book/new/${page}` : `/api/book/showcase/detail/${source}/${page}`;
  return data<ListResponse>('static', 'GET', path);
}

/** No more data when totalPage is 0 or the current page is at or past it (spec section 4). */
export const nextPageOf = (last: ListResponse, page: number) =>
  last.totalPage === 0 || page >= last.totalPage ? undefined : page + 1;

export const listPageOptions = (source: ListSource) =>
  infiniteQueryOptions({
    queryKey: ['more-list', source],
    queryFn: ({ pageParam }) => fetchListPage(source, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => nextPageOf(last, page),
  });

export const useListPages = (source: ListSource) => useInfiniteQuery(listPageOptions(source));
