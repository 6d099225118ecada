import { InfiniteScroll } from 'antd-mobile';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyList, ListEnd } from '../../components/book-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { useScrollRestore } from '../../lib/scroll-restore.ts';
import { useCategories } from './api/category.ts';
import { type PublishStatus, useBooks } from './api/query-books.ts';
import { BookChunk } from './components/book-chunk.tsx';
import { type Chip, FilterChips } from './components/filter-chips.tsx';
import './category.css';

const STATUSES: PublishStatus[] = ['all', 'finish', 'serialize'];

const threshold = () => Math.round((typeof window === 'undefined' ? 844 : window.innerHeight) * 0.1);

export default function CategoryPage() {
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status') as PublishStatus | null;
  const status: PublishStatus = rawStatus && STATUSES.includes(rawStatus) ? rawStatus : 'all';
  const rawCategory = Number(params.get('category') ?? 0);
  const categoryId = Number.isInteger(rawCategory) && rawCategory > 0 ? rawCategory : 0;

  const categories = useCategories();
  const statusChips = useMemo<Chip[]>(
    () => [
      { value: 'all', label: '全部' },
      ...(categories.data?.publishStatusList ?? []).map((s) => ({ value: s.code, label: s.desc })),
    ],
    [categories.data],
  );
  const categoryChips = useMemo<Chip[]>(
    () => [
      { value: '0', label: '全部' },
      ...(categories.data?.categoryList ?? []).map((c) => ({ value: String(c.id), label: c.name })),
    ],
    [categories.data],
  );

  // Filters live in the address (replacing the entry), so going back restores them.
  const setFilter = useCallback(
    (key: 'status' | 'category', value: string) => {
      window.scrollTo(0, 0);
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === 'all' || value === '0') next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  const onStatus = useCallback((v: string) => setFilter('status', v), [setFilter]);
  const onCategory = useCallback((v: string) => setFilter('category', v), [setFilter]);

  const { data, hasNextPage, isFetchingNextPage, fetchNextPage, isPending, isError, refetch } = useBooks(
    status,
    categoryId,
  );
  const pages = data?.pages;
  const ready = !!pages;
  useScrollRestore(ready);

  const loadMore = useCallback(async () => {
    if (isFetchingNextPage) return;
    const r = await fetchNextPage({ cancelRefetch: false });
    if (r.isError) throw r.error;
  }, [fetchNextPage, isFetchingNextPage]);

  const empty = ready && pages.every((p) => p.bookList.length === 0);
  const chunks = useMemo(
    () =>
      (pages ?? []).map((p, i) => (
        <BookChunk key={data?.pageParams[i] as number} books={p.bookList} eager={i === 0} />
      )),
    [pages, data?.pageParams],
  );

  return (
    <main className="page category">
      <header className="cat-head">
        <h1>分类</h1>
        <FilterChips
          label="状态"
          chips={statusChips}
          value={status}
          onChange={onStatus}
          testId="status-filter"
        />
        <FilterChips
          label="题材"
          chips={categoryChips}
          value={String(categoryId)}
          onChange={onCategory}
          testId="category-filter"
        />
      </header>
      {isPending && <div className="cat-loading" aria-busy="true" />}
      {isError && !ready && (
        <button type="button" className="cat-retry" onClick={() => void refetch()}>
          加载失败，点击重试
        </button>
      )}
      {ready && (
        <section className="cat-list" data-testid="category-list">
          {chunks}
        </section>
      )}
      {empty && <EmptyList />}
      {ready && !empty && (
        <InfiniteScroll loadMore={loadMore} hasMore={!!hasNextPage} threshold={threshold()}>
          {(more, failed, retry) =>
            more ? (
              failed ? (
                <button type="button" className="cat-retry" onClick={retry}>
                  加载失败，点击重试
                </button>
              ) : (
                <span className="list-note">加载中…</span>
              )
            ) : (
              <ListEnd />
            )
          }
        </InfiniteScroll>
      )}
      <ServiceLinks />
    </main>
  );
}
