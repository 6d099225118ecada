import { useEffect, useLayoutEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { showAlert } from '../../components/alert.ts';
import { positiveId } from '../../lib/paths.ts';
import { ChapterEnd } from './components/chapter-end.tsx';
import { ChapterPages } from './components/chapter-pages.tsx';
import { ChapterPurchase } from './components/chapter-purchase.tsx';
import { ReaderBottomBar, ReaderTopBar } from './components/reader-bars.tsx';
import { ReaderNote } from './components/reader-note.tsx';
import { useChapter } from './hooks/use-chapter.ts';
import { useChapterDirection } from './hooks/use-chapter-direction.ts';
import { useChapterNavigation } from './hooks/use-chapter-navigation.ts';
import { useMenuVisibility } from './hooks/use-menu-visibility.ts';
import { useReaderBook, useReadingRecord } from './hooks/use-reader-book.ts';
import { MESSAGES } from './reader-helpers.ts';
import './reader.css';

export default function ReaderPage() {
  const params = useParams();
  const bookId = positiveId(params.bookId);
  const number = positiveId(params.number);
  if (bookId === null || number === null) return <NoSuchChapter />;
  return <Reader key={bookId} bookId={bookId} number={number} />;
}

/** No book id or chapter number in the address (spec section 5). */
function NoSuchChapter() {
  useEffect(() => showAlert(MESSAGES.invalid), []);
  return (
    <main className="reader">
      <ReaderNote home />
    </main>
  );
}

function Reader({ bookId, number }: { bookId: number; number: number }) {
  const direction = useChapterDirection(number);
  const [search] = useSearchParams();
  const { outcome, info, retry } = useChapter(bookId, number);
  const { book, favourite, toggleFavourite } = useReaderBook(bookId);
  useReadingRecord(book, number, outcome.kind === 'pages');

  const [menuVisible, setMenuVisible] = useMenuVisibility();
  // A new chapter starts at its top, with the menus shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each new chapter number
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
    setMenuVisible(true);
  }, [number, setMenuVisible]);

  const bookName = info?.bookName || search.get('title') || book?.title || '';
  const chapterTitle = info?.title || search.get('title2') || `第${number}话`;
  const { go, previous, next, toCatalog } = useChapterNavigation({
    bookId,
    number,
    bookName,
    info,
    noMore: outcome.kind === 'no-more',
  });

  let body: React.ReactNode;
  switch (outcome.kind) {
    case 'pages':
      body = (
        <>
          {/* Tapping the pages shows or hides the menus. */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the menus are also reachable at the top and bottom */}
          <div
            key={number}
            className={`reader-tap chapter-enter-${direction}`}
            onClick={() => setMenuVisible((v) => !v)}
          >
            <ChapterPages info={outcome.info} />
          </div>
          <ChapterEnd nextNumber={outcome.info.nextNumber} onNext={() => go(outcome.info.nextNumber)} />
        </>
      );
      break;
    case 'purchase':
      // A fresh buy step for each chapter.
      body = (
        <ChapterPurchase key={number} bookId={bookId} number={number} info={outcome.info} reload={retry} />
      );
      break;
    case 'loading':
      body = <div className="reader-loading" aria-busy="true" />;
      break;
    case 'no-more':
      body = <ReaderNote onCatalog={toCatalog} />;
      break;
    case 'missing':
      body = <ReaderNote home />;
      break;
    case 'failed':
      body = <ReaderNote onRetry={retry} />;
      break;
  }

  const barsVisible = menuVisible || outcome.kind !== 'pages';
  return (
    <main className="reader">
      <ReaderTopBar visible={barsVisible} bookName={bookName} chapterTitle={chapterTitle} />
      {body}
      <ReaderBottomBar
        visible={barsVisible}
        favourite={favourite}
        onCatalog={toCatalog}
        onPrevious={previous}
        onNext={next}
        onFavourite={toggleFavourite}
      />
    </main>
  );
}
