import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '@yueman/contract';
import { data, routes } from '../../../lib/api-client.ts';

/**
 * POST /api/book/search?content=&page=: books whose title or author contains the keyword (no body), 20 a page
 * (docs/decisions.md, Search); a shorter page is the last one.
 */
export const fetchSearchBooks = (content: string, page = 1) =>
  data(routes.search, { query: { content, page } });

export const searchBooksQuery = (content: string) =>
  infiniteQueryOptions({
    queryKey: ['book', 'search', content],
    queryFn: ({ pageParam }) => fetchSearchBooks(content, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.length >= PAGE_SIZE ? page + 1 : undefined),
    enabled: content !== '',
  });

export const useSearchBooks = (content: string) => useInfiniteQuery(searchBooksQuery(content));
