import { DotLoading, InfiniteScroll } from 'antd-mobile';
import { BookRow, EmptyList, ListEnd } from '../../../components/book-list.tsx';
import { BookRowsSkeleton } from '../../../components/skeletons/parts.tsx';
import { useSearchBooks } from '../api/search-books.ts';

/** The results state (spec section 4): a large book list of the matches, 20 a page, with infinite scroll. */
export function SearchResults({ keyword }: { keyword: string }) {
  const result = useSearchBooks(keyword);
  if (result.isPending) return <BookRowsSkeleton />;
  if (result.isError)
    return (
      <div className="search-failed">
        <p>搜索失败，请稍后重试</p>
        <button type="button" onClick={() => void result.refetch()}>
          重试
        </button>
      </div>
    );
  const books = result.data.pages.flat();
  if (books.length === 0) return <EmptyList />;
  return (
    <section aria-label="搜索结果">
      <p className="search-count">
        “<em>{keyword}</em>”的搜索结果
      </p>
      <div className="search-results">
        {books.map((book, i) => (
          <BookRow key={book.bookId} book={book} eager={i < 4} />
        ))}
      </div>
      <InfiniteScroll
        hasMore={result.hasNextPage}
        loadMore={async () => {
          if (!result.isFetchingNextPage) await result.fetchNextPage({ throwOnError: true });
        }}
      >
        {result.hasNextPage ? <DotLoading color="primary" /> : <ListEnd />}
      </InfiniteScroll>
    </section>
  );
}
