import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InitSearch } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';

/** GET /api/book/init_search: the hot words shown before a search. */
export const fetchInitSearch = () => data<InitSearch>('dynamic', 'GET', '/api/book/init_search');

export const initSearchQuery = () =>
  queryOptions({ queryKey: ['book', 'init_search'], queryFn: fetchInitSearch, staleTime: 5 * 60_000 });

export const useInitSearch = () => useQuery(initSearchQuery());
