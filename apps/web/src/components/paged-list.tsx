import { InfiniteScroll } from 'antd-mobile';
import type { ReactNode } from 'react';
import { EmptyList, ListEnd } from './book-list.tsx';

/** The next page loads when the reader is within about 10% of the screen's height from the bottom (spec section 4). */
const threshold = () => Math.round((typeof window === 'undefined' ? 844 : window.innerHeight) * 0.1);

function Retry({ onRetry }: { onRetry: () => void }) {
  return (
    <button type="button" className="list-retry" onClick={onRetry}>
      加载失败，点击重试
    </button>
  );
}

/**
 * The body of an infinite book list: loading space, a retry on failure, the pages (rendered by the caller,
 * one memoised chunk a page), '暂时没有记录' when empty and '暂时没有更多漫画啦!' at the end.
 */
export function PagedList(props: {
  pages: { bookList: unknown[] }[] | undefined;
  chunks: ReactNode;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
  loadMore: () => Promise<void>;
  hasMore: boolean;
  className: string;
  testId: string;
}) {
  const { pages, chunks, isPending, isError, refetch, loadMore, hasMore, className, testId } = props;
  const empty = !!pages && pages.every((p) => p.bookList.length === 0);
  return (
    <>
      {isPending && <div className="list-loading" aria-busy="true" />}
      {isError && !pages && <Retry onRetry={() => void refetch()} />}
      {pages && (
        <section className={className} data-testid={testId}>
          {chunks}
        </section>
      )}
      {empty && <EmptyList />}
      {pages && !empty && (
        <InfiniteScroll loadMore={loadMore} hasMore={hasMore} threshold={threshold()}>
          {(more, failed, retry) =>
            more ? (
              failed ? (
                <Retry onRetry={retry} />
              ) : (
                <span className="list-note">加载中…</span>
              )
            ) : (
              <ListEnd />
            )
          }
        </InfiniteScroll>
      )}
    </>
  );
}
