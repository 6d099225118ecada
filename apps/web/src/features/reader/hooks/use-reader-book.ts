import type { Book } from '@yueman/contract';
import { useEffect, useRef } from 'react';
import { showAlert } from '../../../components/alert.ts';
import { useBookDetail } from '../../../lib/api/book-detail.ts';
import { useShelfStore } from '../../../lib/shelf-store.ts';

/**
 * The Book for reading history and the shelf: the one kept on this device, else the detail call; and 收藏,
 * which adds it to or removes it from the favourites.
 */
export function useReaderBook(bookId: number) {
  const historyBook = useShelfStore((s) => s.history.find((h) => h.bookInfo.bookId === bookId)?.bookInfo);
  const favouriteBook = useShelfStore((s) => s.favourites.find((b) => b.bookId === bookId));
  const fetched = useBookDetail(bookId, !historyBook && !favouriteBook);
  const book: Book | undefined = historyBook ?? favouriteBook ?? fetched.data?.book;
  const favourite = !!favouriteBook;
  const toggle = useShelfStore((s) => s.toggleFavourite);

  const toggleFavourite = () => {
    if (!book) return showAlert('书本信息加载中，请稍候');
    toggle(book);
    showAlert(favourite ? '已取消收藏' : '已加入收藏');
  };
  return { book, favourite, toggleFavourite };
}

/** Reading history (spec section 4): each chapter shown is recorded once. */
export function useReadingRecord(book: Book | undefined, number: number, shown: boolean) {
  const recordReading = useShelfStore((s) => s.recordReading);
  const recorded = useRef('');
  useEffect(() => {
    if (!shown || !book) return;
    const key = `${book.bookId}/${number}`;
    if (recorded.current === key) return;
    recorded.current = key;
    recordReading(book, number);
  }, [shown, book, number, recordReading]);
}
