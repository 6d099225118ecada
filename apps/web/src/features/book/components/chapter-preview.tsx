import type { Book, ChapterItem } from '@yueman/contract';
import { Link } from 'react-router';
import { catalogPath, readerPath } from '../../../lib/paths.ts';
import { priceLabel } from '../book-helpers.ts';

const PREVIEW_SIZE = 6;

/** 目录: the first chapters with their price, and 查看目录 for the whole catalogue. */
export function ChapterPreview({ book, chapters }: { book: Book; chapters: ChapterItem[] }) {
  return (
    <section className="book-section">
      <div className="book-section-head">
        <h2 className="book-section-title">
          目录{' '}
          <span className="book-section-sub">
            {book.publishStatus === 'finish' ? '已完结' : `更新至${chapters.length}话`}
          </span>
        </h2>
        <Link to={catalogPath(book.bookId, book.title)} className="book-more">
          查看目录
        </Link>
      </div>
      <ul className="book-chapter-grid">
        {chapters.slice(0, PREVIEW_SIZE).map((c) => (
          <li key={c.chapterId}>
            <Link to={readerPath(book.bookId, c.number, book.title, c.title)} className="book-chapter-chip">
              <span className="book-chapter-chip-title">{c.title}</span>
              <span className={c.price === 0 ? 'chip-free' : 'chip-price'}>{priceLabel(c.price)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
