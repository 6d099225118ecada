import { Code } from '@yueman/contract';
import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ServiceLinks } from '../../components/service-links.tsx';
import { CatalogBodySkeleton } from '../../components/skeletons/parts.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { positiveId } from '../../lib/paths.ts';
import { useShelfStore } from '../../lib/shelf-store.ts';
import { useChapterList } from './api/get-chapter-list.ts';
import { BookMessage } from './components/book-notes.tsx';
import { ChapterRow } from './components/chapter-row.tsx';
import './book.css';

/** Codes of a book the catalogue cannot show: an id the server refuses as malformed (400), or no such book. */
const MISSING: number[] = [Code.noMoreChapters, Code.notFound];

/** /book/{id}/catalog?title=: every chapter with its price and whether it is bought, in either order. */
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
    bookId === null || (chapters.error instanceof ApiError && MISSING.includes(chapters.error.code));

  return (
    <main className="page catalog-page">
      <TopBar title={title} />
      {missing ? (
        <BookMessage text="这本漫画不存在或已下架" />
      ) : chapters.isError ? (
        <BookMessage text="目录加载失败，请稍后重试" onRetry={() => void chapters.refetch()} />
      ) : !chapters.data ? (
        <div aria-busy="true">
          <CatalogBodySkeleton />
        </div>
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
