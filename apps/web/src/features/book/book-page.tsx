import { Code } from '@yueman/contract';
import { startTransition, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { BookTile } from '../../components/book-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { WechatNotice } from '../../components/wechat-notice.tsx';
import { useBookDetail } from '../../lib/api/book-detail.ts';
import { ApiError } from '../../lib/api-client.ts';
import { positiveId } from '../../lib/paths.ts';
import { BookActions } from './components/book-actions.tsx';
import { BookHeader } from './components/book-header.tsx';
import { BookFailed, BookLoading, BookMissing } from './components/book-notes.tsx';
import { ChapterPreview } from './components/chapter-preview.tsx';
import { WaitFreeNote } from './components/wait-free-note.tsx';
import './book.css';

/** /book/{id}: the book, its actions, abstract, first chapters and recommendations (spec section 2). */
export default function BookPage() {
  const bookId = positiveId(useParams().id);
  const detail = useBookDetail(bookId ?? 0, bookId !== null);
  // What is below the first screen (recommendations with their covers, the service links) follows in a task of its
  // own, as on home: one commit of the whole page was the longest task of its load on a slow phone.
  const [below, setBelow] = useState(false);
  const hasData = !!detail.data;
  useEffect(() => {
    if (!hasData) return;
    const next = setTimeout(() => startTransition(() => setBelow(true)), 0);
    return () => clearTimeout(next);
  }, [hasData]);

  if (
    bookId === null ||
    (detail.isError && detail.error instanceof ApiError && detail.error.code === Code.notFound)
  ) {
    return <BookMissing />;
  }
  if (detail.isError) return <BookFailed onRetry={() => void detail.refetch()} />;
  if (!detail.data) return <BookLoading />;

  const { book, chapterList, lastChapter, recommendList, waitFree } = detail.data;
  return (
    <main className="page book-page">
      <TopBar title={book.title} />
      <BookHeader book={book} />
      <BookActions book={book} lastNumber={lastChapter?.number ?? 0} />
      <WechatNotice kind="new_chapter" />
      {waitFree && <WaitFreeNote bookId={book.bookId} waitMinutes={waitFree.waitMinutes} />}
      <section className="book-section">
        <p className="book-abstract">{book.abstractContent}</p>
      </section>
      <ChapterPreview book={book} chapters={chapterList} />
      {below && recommendList.length > 0 && (
        <section className="book-section">
          <h2 className="book-section-title">猜你喜欢</h2>
          <div className="book-recommend-grid">
            {recommendList.map((b) => (
              <BookTile key={b.bookId} book={b} />
            ))}
          </div>
        </section>
      )}
      {below && <ServiceLinks />}
    </main>
  );
}
