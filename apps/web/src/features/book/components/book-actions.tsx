import type { Book } from '@yueman/contract';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { readerPath } from '../../../lib/paths.ts';
import { useShelfStore } from '../../../lib/shelf-store.ts';

/**
 * 开始阅读 goes to the chapter read last (asking first, with 确定 / 取消) or to chapter 1. The prompt shows when
 * 开始阅读 is tapped rather than on arrival: a reader who came for the catalogue or the recommendations is not
 * interrupted by a modal (docs in the feature report).
 */
export function BookActions({ book, lastNumber }: { book: Book; lastNumber: number }) {
  const navigate = useNavigate();
  const favourite = useShelfStore((s) => s.favourites.some((b) => b.bookId === book.bookId));
  const toggleFavourite = useShelfStore((s) => s.toggleFavourite);
  const history = useShelfStore((s) => s.history.find((h) => h.bookInfo.bookId === book.bookId));

  const start = useCallback(async () => {
    if (!history) return navigate(readerPath(book.bookId, 1, book.title));
    // Loaded on tap: the dialog's animation library is kept off the detail page's first load.
    const { default: Dialog } = await import('antd-mobile/es/components/dialog');
    const goOn = await Dialog.confirm({
      content: `上次阅读到第${history.number}话，是否继续阅读？`,
      confirmText: '确定',
      cancelText: '取消',
      bodyClassName: 'book-dialog',
    });
    if (goOn) navigate(readerPath(book.bookId, history.number, book.title));
  }, [book, history, navigate]);

  return (
    <section className="book-actions">
      <button
        type="button"
        className={`book-fav ${favourite ? 'is-on' : ''}`}
        aria-pressed={favourite}
        onClick={() => toggleFavourite(book)}
      >
        <span className="book-fav-icon" aria-hidden />
        {favourite ? '取消收藏' : '加入收藏'}
      </button>
      <button type="button" className="book-start" onClick={() => void start()}>
        开始阅读
        {history && <small>续看第{history.number}话</small>}
      </button>
      <button
        type="button"
        className="book-latest"
        disabled={lastNumber === 0}
        onClick={() => navigate(readerPath(book.bookId, lastNumber, book.title))}
      >
        最新
      </button>
    </section>
  );
}
