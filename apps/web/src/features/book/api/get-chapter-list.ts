import { queryOptions, useQuery } from '@tanstack/react-query';
import { data, routes } from '../../../lib/api-client.ts';
import { useUserStore } from '../../../lib/user-store.ts';

/**
 * POST /api/book/chapter/list (dynamic): the catalogue, with this reader's purchases (alreadyBuy). bookId goes in
 * the query and in the form body, as the spec's clients send it.
 */
export const getChapterList = (bookId: number) =>
  data(routes.chapterList, { query: { bookId }, form: { bookId } });

export const chapterListQueryOptions = (bookId: number, userId: number) =>
  queryOptions({
    // Purchases are personal: another user (a login) gets its own list.
    queryKey: ['book', 'chapters', bookId, userId],
    queryFn: () => getChapterList(bookId),
    staleTime: 0,
    retry: false,
  });

export const useChapterList = (bookId: number, enabled = true) => {
  const userId = useUserStore((s) => s.userInfo?.userId ?? 0);
  return useQuery({ ...chapterListQueryOptions(bookId, userId), enabled });
};
