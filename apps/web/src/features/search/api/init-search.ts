import { queryOptions, useQuery } from '@tanstack/react-query';
import { data, routes } from '../../../lib/api-client.ts';

/** GET /api/book/init_search: the hot words shown before a search. */
export const fetchInitSearch = () => data(routes.initSearch);

export const initSearchQuery = () =>
  queryOptions({ queryKey: ['book', 'init_search'], queryFn: fetchInitSearch, staleTime: 5 * 60_000 });

export const useInitSearch = () => useQuery(initSearchQuery());
