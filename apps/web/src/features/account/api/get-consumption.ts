import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { data, routes } from '../../../lib/api-client.ts';

/** GET /api/user/consumption?page=: the reader's coin and payment records, newest first, 20 a page. */
export const fetchConsumption = (page: number) => data(routes.consumption, { query: { page } });

export const consumptionQuery = () =>
  infiniteQueryOptions({
    queryKey: ['user', 'consumption'],
    queryFn: ({ pageParam }) => fetchConsumption(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (page < last.totalPage ? page + 1 : undefined),
    staleTime: 0,
  });

export const useConsumption = () => useInfiniteQuery(consumptionQuery());
