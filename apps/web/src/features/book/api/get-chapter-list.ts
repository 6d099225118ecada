import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChapterItem } from '@yueman/contract';
import { data } from '../../../lib/api-client.ts';
import { useUserStore } from '../../../lib/user-store.ts';

/** POST /api/book/chapter/list?bookId= (dynamic): the catalogue, with this reader's purchases (alreadyBuy). */
export const getChapterList = (bookId: number) =>
  data<ChapterItem[]>('dynamic', 'POST', '/api/book/chapter/list', {
    query: { bookId },
    form: { bookId },
  });

export const chapterListQueryOptions = (bookId: number, userId: number) =>
  queryOptions({
    // Purchases are personal: another user (a login) gets its own list.
    queryKey: ['book', 'chapters', bookId, userId],
    queryFn: () => getChapterList(bookId),
    staleTime: 0,
    retry: false,
  });

export const useChapterList = (bookId: number) => {
  const userId = useUserStore((s) => s.userInfo?.userId ?? 0);
  return useQuery(chapterListQueryOptions(bookId, userId));
};
