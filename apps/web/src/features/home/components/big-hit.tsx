import type { Book } from '@yueman/contract';
import { memo } from 'react';
import { Link } from 'react-router';
import { Cover } from '../../../components/cover.tsx';
import { bookPath } from '../../../lib/paths.ts';

/** A big-hit card: the book's horizontal cover at full width, title and abstract below. */
export const BigHit = memo(function BigHit({ book, wide }: { book: Book; wide: boolean }) {
  return (
    <Link to={bookPath(book.bookId)} className={`home-bighit ${wide ? 'home-bighit-wide' : ''}`}>
      <Cover path={book.horiCover || book.cover} width={500} shape="horizontal" alt={book.title} />
      <span className="home-bighit-title">{book.title}</span>
      <span className="home-bighit-abstract">{wide ? book.abstractContent : book.categoryName}</span>
    </Link>
  );
});
