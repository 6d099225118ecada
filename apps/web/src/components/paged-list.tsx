import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { InfiniteScroll } from 'antd-mobile';
import { Fragment, type ReactNode, useCallback, useMemo } from 'react';
import { useScrollRestore } from '../lib/scroll-restore.ts';
import { EmptyList, ListEnd } from './book-list.tsx';
import { BookRowsSkeleton } from './skeletons/parts.tsx';

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
 * The body of an infinite book list over its query: placeholders of its rows while the first page loads
 * (`placeholder`, large book rows by default), a retry on failure, the pages (each rendered by
 * `renderPage` as one memoised chunk, so loading page n+1 renders only the new one; pass a stable function),
 * '暂时没有记录' when empty and '暂时没有更多漫画啦!' at the end. Going back to the list puts the scroll back.
 */
export function PagedList<P extends { bookList: unknown[] }>(props: {
  query: UseInfiniteQueryResult<InfiniteData<P>>;
  renderPage(page: P, index: number): ReactNode;
  className: string;
  testId: string;
  placeholder?: ReactNode;
}) {
  const { query, renderPage, className, testId, placeholder = <BookRowsSkeleton count={5} /> } = props;
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage, isPending, isError, refetch } = query;
  const pages = data?.pages;
  useScrollRestore(!!pages);

  const loadMore = useCallback(async () => {
    if (isFetchingNextPage) return;
    const r = await fetchNextPage({ cancelRefetch: false });
    if (r.isError) throw r.error;
  }, [fetchNextPage, isFetchingNextPage]);

  const chunks = useMemo(
    () =>
      (pages ?? []).map((p, i) => (
        <Fragment key={data?.pageParams[i] as number}>{renderPage(p, i)}</Fragment>
      )),
    [pages, data?.pageParams, renderPage],
  );

  const empty = !!pages && pages.every((p) => p.bookList.length === 0);
  return (
    <>
      {isPending && <div aria-busy="true">{placeholder}</div>}
      {isError && !pages && <Retry onRetry={() => void refetch()} />}
      {pages && (
        <section className={className} data-testid={testId}>
          {chunks}
        </section>
      )}
      {empty && <EmptyList />}
      {pages && !empty && (
        <InfiniteScroll loadMore={loadMore} hasMore={!!hasNextPage} threshold={threshold()}>
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
