import type { Book } from '@yueman/contract';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { readerPath } from '../../../lib/paths.ts';
import { positionLabel, useProgressStore } from '../../../lib/progress-store.ts';
import { pullPositions } from '../../../lib/progress-sync.ts';
import { useShelfStore } from '../../../lib/shelf-store.ts';

const HEART = 'M12 21s-8-5.3-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.7-8 11-8 11z';

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
  const position = useProgressStore((s) => s.positions[book.bookId]);
  // The account may know a later position (another device): asked once the page is open.
  useEffect(() => {
    void pullPositions(book.bookId).catch(() => undefined);
  }, [book.bookId]);
  // Where to go on: the page kept for the book, else the chapter the history names.
  const resume = position
    ? { number: position.chapterNumber, label: positionLabel(position) }
    : history && { number: history.number, label: `第${history.number}话` };

  const start = useCallback(async () => {
    if (!resume) return navigate(readerPath(book.bookId, 1, book.title));
    // Loaded on tap: the dialog's animation library is kept off the detail page's first load.
    const { default: Dialog } = await import('antd-mobile/es/components/dialog');
    const goOn = await Dialog.confirm({
      // The spec's words; the page is on the button (续看第N话 第M页), and the reader opens at it.
      content: `上次阅读到第${resume.number}话，是否继续阅读？`,
      confirmText: '确定',
      cancelText: '取消',
      bodyClassName: 'book-dialog',
    });
    if (goOn) navigate(readerPath(book.bookId, resume.number, book.title));
  }, [book, resume, navigate]);

  return (
    <section className="book-actions">
      <button
        type="button"
        className={`book-fav ${favourite ? 'is-on' : ''}`}
        aria-pressed={favourite}
        onClick={() => toggleFavourite(book)}
      >
        <Icon d={HEART} className="book-fav-icon" />
        {favourite ? '取消收藏' : '加入收藏'}
      </button>
      <button type="button" className="book-start" onClick={() => void start()}>
        开始阅读
        {resume && <small data-testid="book-resume">续看{resume.label}</small>}
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
