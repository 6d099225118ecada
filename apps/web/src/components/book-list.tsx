import type { Book } from '@yueman/contract';
import { Link } from 'react-router';
import { bookPath } from '../lib/paths.ts';
import { Cover } from './cover.tsx';

/** 完结 or 连载, coloured by status; `base` is the class of the badge's look (status-finish, status-serialize). */
export function StatusBadge({ status, base = 'status' }: { status: string; base?: string }) {
  const finished = status === 'finish';
  return (
    <span className={`${base} ${base}-${finished ? 'finish' : 'serialize'}`}>
      {finished ? '完结' : '连载'}
    </span>
  );
}

/** 5373057 → 537.3万 */
export const readCountLabel = (n: number) => (n >= 10000 ? `${(n / 10000).toFixed(1)}万` : String(n));

/** Small tile: cover and title (the first 3 books of a list's first page, home sections). */
export function BookTile({ book, eager = false }: { book: Book; eager?: boolean }) {
  return (
    <Link to={bookPath(book.bookId)} className="book-tile">
      <Cover path={book.cover} width={200} alt={book.title} eager={eager} />
      <span className="book-tile-title">{book.title}</span>
      <span className="book-tile-meta">{book.categoryName}</span>
    </Link>
  );
}

/** Large row: cover, title, author, abstract, status and reads; `rank` shows NO.n (1 to 3 as hot badges). */
export function BookRow({ book, rank, eager = false }: { book: Book; rank?: number; eager?: boolean }) {
  return (
    <Link to={bookPath(book.bookId)} className="book-row">
      <Cover path={book.cover} width={200} alt={book.title} eager={eager} />
      <div className="book-row-text">
        <span className="book-row-title">
          {rank !== undefined && <span className={`rank ${rank <= 3 ? 'rank-hot' : ''}`}>NO.{rank}</span>}
          {book.title}
        </span>
        <span className="book-row-author">{book.author}</span>
        <span className="book-row-abstract">{book.abstractContent}</span>
        <span className="book-row-meta">
          <StatusBadge status={book.publishStatus} />
          <span>{book.categoryName}</span>
          <span>{readCountLabel(book.readCount)}人气</span>
        </span>
      </div>
    </Link>
  );
}

export function EmptyList() {
  return <p className="list-note">暂时没有记录</p>;
}

export function ListEnd() {
  return <p className="list-note">暂时没有更多漫画啦!</p>;
}
