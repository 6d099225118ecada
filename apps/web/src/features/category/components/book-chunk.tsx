import type { Book } from '@yueman/contract';
import { memo } from 'react';
import { BookRow } from '../../../components/book-list.tsx';

const Row = memo(BookRow);

/** One loaded page of the filtered list, memoised so a new page renders only itself. */
export const BookChunk = memo(function BookChunk({ books, eager }: { books: Book[]; eager: boolean }) {
  return (
    <>
      {books.map((book, i) => (
        <div className="cat-row" key={book.bookId} data-testid="category-item">
          <Row book={book} eager={eager && i < 4} />
        </div>
      ))}
    </>
  );
});
