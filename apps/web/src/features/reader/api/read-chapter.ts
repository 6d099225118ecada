import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, routes } from '../../../lib/api-client.ts';
import { earlyAnswerNow } from '../../../lib/early-data.ts';

/**
 * GET /api/book/read_chapter?bookId=&number= (dynamic). The whole envelope comes back: the reader acts on its
 * code (200 pages, 999 buy first, with the chapter info and no pages; 400 no such chapter; 101 no user).
 */
export const readChapter = (bookId: number, number: number) =>
  call(routes.readChapter, { query: { bookId, number } });

export const readChapterQueryOptions = (bookId: number, number: number) =>
  queryOptions({
    queryKey: ['reader', 'chapter', bookId, number],
    queryFn: () => readChapter(bookId, number),
    // Ownership can change (a purchase or a login ask again; a VIP bought elsewhere does not): only an answer with
    // pages is kept, 30 s, so the next chapter fetched ahead near the end of this one (use-next-chapter-prefetch.ts)
    // opens from it without asking twice (nor counting the read twice); any other answer is asked again.
    staleTime: (query) => (query.state.data?.result ? 30_000 : 0),
    // Landing on a free chapter, the answer in the page (the same for anyone) is the first frame's; it is old at
    // once, so the reader's own call still follows (it counts the read, and answers for this reader).
    initialData: () => earlyAnswerNow(routes.readChapter, { query: { bookId, number } }),
    initialDataUpdatedAt: 0,
    retry: 1,
  });

export const useReadChapter = (bookId: number, number: number, enabled: boolean) =>
  useQuery({ ...readChapterQueryOptions(bookId, number), enabled });
