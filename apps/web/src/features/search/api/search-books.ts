import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Book } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';

/** The server answers 20 books a page (docs/decisions.md, Search); a shorter page is the last one. */
export const SEARCH_PAGE_SIZE = 20;

/** POST /api/book/search?content=&page=: books whose title or author contains the keyword (no body). */
export const fetchSearchBooks = (content: string, page = 1) =>
  data<Book[]>('dynamic', 'POST', '/api/book/search', { query: { content, page } });

export const searchBooksQuery = (content: string) =>
  infiniteQueryOptions({
    queryKey: ['book', 'search', content],
    queryFn: ({ pageParam }) => fetchSearchBooks(content, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.length >= SEARCH_PAGE_SIZE ? page + 1 : undefined),
    enabled: content !== '',
  });

export const useSearchBooks = (content: string) => useInfiniteQuery(searchBooksQuery(content));
