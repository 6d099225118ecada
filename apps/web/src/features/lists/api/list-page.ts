import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ShowcaseType } from '@yueman/contract';
import { data, routes } from '../../../lib/api-client.ts';
import { nextPage } from '../../../lib/paging.ts';

/** Which call feeds a 'more' list: a showcase type, or the daily-update call (docs/decisions.md). */
export type ListSource = ShowcaseType | 'update';

/** GET /api/book/showcase/detail/{type}/{page}, or GET /api/book/new/{page} for daily updates. */
export const fetchListPage = (source: ListSource, page: number) =>
  source === 'update'
    ? data(routes.updatedBooks, { params: { page } })
    : data(routes.showcase, { params: { type: source, page } });

export const listPageOptions = (source: ListSource) =>
  infiniteQueryOptions({
    queryKey: ['more-list', source],
    queryFn: ({ pageParam }) => fetchListPage(source, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => nextPage(last.totalPage, page),
  });

export const useListPages = (source: ListSource) => useInfiniteQuery(listPageOptions(source));
