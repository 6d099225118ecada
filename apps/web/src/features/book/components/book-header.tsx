import type { Book } from '@yueman/contract';
import { readCountLabel, StatusBadge } from '../../../components/book-list.tsx';
import { Cover } from '../../../components/cover.tsx';
import '../book-hero.css';

/** The horizontal cover behind the cover, title, author, status, category, chapter count and read count. */
export function BookHeader({ book }: { book: Book }) {
  return (
    <header className="book-header">
      <Cover path={book.horiCover} width={500} shape="horizontal" alt="" eager className="book-hero" />
      <div className="book-hero-shade" />
      <div className="book-header-body">
        <Cover path={book.cover} width={200} alt={book.title} eager className="book-header-cover" />
        <div className="book-header-text">
          <h1 className="book-title">{book.title}</h1>
          <p className="book-author">{book.author}</p>
          <p className="book-meta">
            <StatusBadge status={book.publishStatus} base="book-status" />
            <span>{book.categoryName}</span>
            <span>{book.chapterCount}话</span>
          </p>
          <p className="book-reads">
            <strong>{readCountLabel(book.readCount)}</strong> 人气
          </p>
        </div>
      </div>
    </header>
  );
}
