import type { ChapterInfo } from '@yueman/contract';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { showAlert } from '../../../components/alert.ts';
import { catalogPath, readerPath } from '../../../lib/paths.ts';
import { MESSAGES } from '../reader-helpers.ts';

/**
 * 上一话, 下一话 and 目录 (spec sections 4 and 5): the previous and next chapter replace the route; there is
 * no previous on chapter 1 and no next on the last chapter.
 */
export function useChapterNavigation(opts: {
  bookId: number;
  number: number;
  bookName: string;
  /** The chapter info once known (its lastNumber and nextNumber), else null. */
  info: ChapterInfo | null;
  /** Code 400: this chapter does not exist, so there is no next one either. */
  noMore: boolean;
}) {
  const { bookId, number, bookName, info, noMore } = opts;
  const navigate = useNavigate();

  const go = useCallback(
    (to: number) => navigate(readerPath(bookId, to, bookName), { replace: true }),
    [navigate, bookId, bookName],
  );
  const previous = () => {
    const to = info ? info.lastNumber : number - 1;
    if (number <= 1 || to <= 0) return showAlert(MESSAGES.first);
    go(to);
  };
  const next = () => {
    const to = info ? info.nextNumber : noMore ? 0 : number + 1;
    if (!to) return showAlert(MESSAGES.last);
    go(to);
  };
  const toCatalog = () => navigate(catalogPath(bookId, bookName));

  return { go, previous, next, toCatalog };
}
