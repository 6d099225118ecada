import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Book, BookDetail } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';

/** GET /api/book/detail/{bookId} (static), for the Book that history and the shelf keep. */
export const getBook = async (bookId: number): Promise<Book> =>
  (await data<BookDetail>('static', 'GET', `/api/book/detail/${bookId}`)).book;

export const bookQueryOptions = (bookId: number) =>
  queryOptions({
    // Its own key: the book feature caches the whole detail under ['book', 'detail', id].
    queryKey: ['reader', 'book', bookId],
    queryFn: () => getBook(bookId),
    retry: false,
  });

export const useBook = (bookId: number, enabled: boolean) =>
  useQuery({ ...bookQueryOptions(bookId), enabled });
