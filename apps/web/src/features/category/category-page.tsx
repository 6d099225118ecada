import type { Book } from '@yueman/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PagedList } from '../../components/paged-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { useCategories } from './api/category.ts';
import { type PublishStatus, useBooks } from './api/query-books.ts';
import { BookChunk } from './components/book-chunk.tsx';
import { type Chip, FilterChips } from './components/filter-chips.tsx';
import './category.css';

const STATUSES: PublishStatus[] = ['all', 'finish', 'serialize'];

/** One loaded page; the first one's covers load at once. */
const renderPage = (p: { bookList: Book[] }, i: number) => <BookChunk books={p.bookList} eager={i === 0} />;

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

  const books = useBooks(status, categoryId);

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
          placeholders={categories.isPending ? 2 : 0}
        />
        <FilterChips
          label="题材"
          chips={categoryChips}
          value={String(categoryId)}
          onChange={onCategory}
          testId="category-filter"
          placeholders={categories.isPending ? 6 : 0}
        />
        {categories.isError && (
          <button type="button" className="list-retry" onClick={() => void categories.refetch()}>
            分类加载失败，点击重试
          </button>
        )}
      </header>
      <PagedList query={books} renderPage={renderPage} className="cat-list" testId="category-list" />
      <ServiceLinks />
    </main>
  );
}
