import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useShelfStore } from '../../lib/shelf-store.ts';
import { useChapterList } from './api/get-chapter-list.ts';
import { positiveId } from './book-helpers.ts';
import { ChapterRow } from './components/chapter-row.tsx';
import './book.css';

export default function CatalogPage() {
  const bookId = positiveId(useParams().id);
  const [params] = useSearchParams();
  const title = params.get('title') || '目录';
  const chapters = useChapterList(bookId ?? 0);
  const lastNumber = useShelfStore((s) => s.history.find((h) => h.bookInfo.bookId === bookId)?.number ?? 0);
  const [descending, setDescending] = useState(false);

  const ordered = useMemo(
    () => (descending ? [...(chapters.data ?? [])].reverse() : (chapters.data ?? [])),
    [chapters.data, descending],
  );

  const missing =
    bookId === null || (chapters.error instanceof ApiError && [400, 404].includes(chapters.error.code));

  return (
    <main className="page catalog-page">
      <TopBar title={title} />
      {missing ? (
        <div className="book-message" role="alert">
          <p>这本漫画不存在或已下架</p>
          <Link to="/home" className="book-link-button">
            返回首页
          </Link>
        </div>
      ) : chapters.isError ? (
        <div className="book-message" role="alert">
          <p>目录加载失败，请稍后重试</p>
          <button type="button" className="book-link-button" onClick={() => void chapters.refetch()}>
            重新加载
          </button>
        </div>
      ) : !chapters.data ? (
        <div className="book-skeleton" aria-busy="true" />
      ) : (
        <>
          <div className="catalog-head">
            <span>共{chapters.data.length}话</span>
            <button type="button" className="catalog-order" onClick={() => setDescending((d) => !d)}>
              {descending ? '倒序' : '正序'}
            </button>
          </div>
          <ul className="catalog-list">
            {ordered.map((c) => (
              <ChapterRow
                key={c.chapterId}
                chapter={c}
                bookTitle={params.get('title') ?? ''}
                current={c.number === lastNumber}
              />
            ))}
          </ul>
          <ServiceLinks />
        </>
      )}
    </main>
  );
}
