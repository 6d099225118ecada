import { type Book, PAGE_SIZE } from '@yueman/contract';
import { memo } from 'react';
import { BookRow, BookTile } from '../../../components/book-list.tsx';

const Row = memo(BookRow);
const Tile = memo(BookTile);

/**
 * One loaded page of a 'more' list. Memoised on its (stable) book array, so loading page n+1 renders only the
 * new chunk. Page 1's first 3 books are small tiles, the rest large rows; `ranked` numbers them NO.n.
 */
export const ListChunk = memo(function ListChunk({
  books,
  page,
  ranked,
}: {
  books: Book[];
  page: number;
  ranked: boolean;
}) {
  const rankOf = (i: number) => (ranked ? (page - 1) * PAGE_SIZE + i + 1 : undefined);
  const tiles = page === 1 ? books.slice(0, 3) : [];
  const rows = page === 1 ? books.slice(3) : books;
  const offset = tiles.length;
  return (
    <>
      {tiles.length > 0 && (
        <div className="ml-tiles">
          {tiles.map((book, i) => {
            const rank = rankOf(i);
            return (
              <div className="ml-tile" key={book.bookId} data-testid="list-item">
                {rank !== undefined && <span className="rank rank-hot ml-tile-rank">NO.{rank}</span>}
                <Tile book={book} eager />
              </div>
            );
          })}
        </div>
      )}
      {rows.map((book, i) => (
        <div className="ml-row" key={book.bookId} data-testid="list-item">
          <Row book={book} rank={rankOf(offset + i)} eager={page === 1 && i < 3} />
        </div>
      ))}
    </>
  );
});
