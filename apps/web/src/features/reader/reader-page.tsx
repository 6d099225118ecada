import {
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { showAlert } from '../../components/alert.ts';
import { afterFirstScreen } from '../../lib/chunk-load.ts';
import { positiveId, reportPagePath } from '../../lib/paths.ts';
import { qqChatLink } from '../../lib/service-addresses.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { ChapterEnd, loadChapterEndBody } from './components/chapter-end.tsx';
import { ChapterPages } from './components/chapter-pages.tsx';
import { ReaderBottomBar, ReaderTopBar } from './components/reader-bars.tsx';
import { ReaderNote } from './components/reader-note.tsx';
import { loadAutoScrollRun, useAutoScroll } from './hooks/use-auto-scroll.ts';
import { useChapter } from './hooks/use-chapter.ts';
import { useChapterDirection } from './hooks/use-chapter-direction.ts';
import { useChapterNavigation } from './hooks/use-chapter-navigation.ts';
import { useMenuVisibility } from './hooks/use-menu-visibility.ts';
import { loadNextChapterFetch, useNextChapterPrefetch } from './hooks/use-next-chapter-prefetch.ts';
import { usePageTaps } from './hooks/use-page-taps.ts';
import { usePageZoom } from './hooks/use-page-zoom.ts';
import { useReaderBook, useReadingRecord } from './hooks/use-reader-book.ts';
import { useReadingPosition } from './hooks/use-reading-position.ts';
import { MESSAGES } from './reader-helpers.ts';
import { useReaderSettings } from './reader-settings-store.ts';
import './reader-frame.css';
import './reader.css';

// The settings sheet is loaded on the first tap of 设置 (antd-mobile's Popup brings its animation library).
const ReaderSettings = lazy(() => import('./components/reader-settings.tsx'));
// The buy step (its overlay brings antd-mobile's Checkbox, ~3 KB gzip) is not part of a free chapter's first screen:
// it loads when a chapter asks for it, or with the later parts (below) so that a priced chapter rarely waits for it.
const loadPurchase = () => import('./components/chapter-purchase.tsx');
const ChapterPurchase = lazy(() => loadPurchase().then((m) => ({ default: m.ChapterPurchase })));
// The auto-scroll control shows only while the setting is on: it loads then, or with the later parts (below).
const loadAutoScrollControl = () => import('./components/auto-scroll-control.tsx');
const AutoScrollControl = lazy(() => loadAutoScrollControl().then((m) => ({ default: m.AutoScrollControl })));

// What a chapter that failed shows offline (pwa/offline-chapter-note.tsx) loads when a chapter fails: it is in no
// chapter's first download. If its code cannot come either (the network dropped), the reader's own note shows.
const OfflineChapterNote = lazy(() =>
  import('../../pwa/offline-chapter-note.tsx').then(
    (m) => ({ default: m.OfflineChapterNote }),
    () => ({ default: ({ online }: { online: ReactNode }) => online }),
  ),
);

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

  // The chapter's later parts (the buy step, what the chapter's end shows, auto-scroll, the next chapter's prefetch)
  // load once the first screen has had its time, unless needed sooner (each loads then).
  useEffect(
    () =>
      afterFirstScreen(() => {
        for (const load of [
          loadPurchase,
          loadChapterEndBody,
          loadAutoScrollControl,
          loadAutoScrollRun,
          loadNextChapterFetch,
        ])
          void load().catch(() => undefined);
      }),
    [],
  );
  const settings = useReaderSettings();
  const showsPages = outcome.kind === 'pages';
  // Auto-scroll hides the menus when it starts and shows them at the chapter's end; while it runs, scrolling
  // leaves them alone (use-menu-visibility.ts). Its callbacks run after render, when setMenuVisible is set.
  const auto = useAutoScroll({
    enabled: settings.autoScroll,
    speed: settings.speed,
    ready: showsPages,
    chapter: number,
    onStart: () => setMenuVisible(false),
    onEnd: () => setMenuVisible(true),
  });
  const [menuVisible, setMenuVisible] = useMenuVisibility(auto.running);
  const showMenus = useCallback(() => setMenuVisible(true), [setMenuVisible]);
  // A new chapter starts at its top, with the menus shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each new chapter number
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
    setMenuVisible(true);
  }, [number, setMenuVisible]);

  // Exact resume: declared after the scroll to the top above, so the kept place wins (use-reading-position.ts).
  const whereNow = useReadingPosition(
    bookId,
    number,
    showsPages,
    positiveId(search.get('page')) ?? undefined,
  );
  useNextChapterPrefetch(bookId, outcome.kind === 'pages' ? outcome.info.nextNumber : 0, showsPages);
  const navigate = useNavigate();
  const commonInfo = useUserStore((s) => s.commonInfo);
  const reportPage = () => {
    const qq = commonInfo?.customerServiceQQ;
    navigate(
      reportPagePath(location.pathname + location.search, qq ? qqChatLink(qq) : '', {
        bookId,
        number,
        page: whereNow().pageNumber,
        title: bookName,
      }),
    );
  };

  const zoom = usePageZoom();
  const taps = usePageTaps(() => setMenuVisible((v) => !v), zoom.toggleAt);
  // While auto-scroll runs, a tap on the pages pauses it, and only that.
  const onPagesClick = (e: React.MouseEvent) => {
    if (auto.running) {
      taps.reset();
      auto.pause();
    } else taps.onClick(e);
  };

  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsLoaded, setSettingsLoaded] = useState(false);
  const settingsButton = useRef<HTMLButtonElement>(null);
  const openSettings = () => {
    setSettingsLoaded(true);
    setSettingsOpen(true);
  };
  // The focus goes back to 设置 (a tap's focus there does not bring the bars back: reader-bars.tsx).
  const closeSettings = useCallback(() => {
    setSettingsOpen(false);
    settingsButton.current?.focus({ preventScroll: true });
  }, []);
  const onAutoScroll = useCallback(
    (on: boolean) => {
      settings.setAutoScroll(on);
      if (on) auto.start();
      else auto.pause();
    },
    [settings.setAutoScroll, auto.start, auto.pause],
  );

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
          {/* Tapping the pages shows or hides the menus (or pauses auto-scroll); a double tap zooms a page. */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the menus are also reachable at the top and bottom and with Tab */}
          <div key={number} className={`reader-tap chapter-enter-${direction}`} onClick={onPagesClick}>
            <ChapterPages info={outcome.info} bookName={bookName} zoomed={zoom.zoomed} />
          </div>
          <ChapterEnd nextNumber={outcome.info.nextNumber} onNext={() => go(outcome.info.nextNumber)} />
        </>
      );
      break;
    case 'purchase':
      // A fresh buy step for each chapter.
      body = (
        <Suspense fallback={<div className="reader-loading" aria-busy="true" />}>
          <ChapterPurchase key={number} bookId={bookId} number={number} info={outcome.info} reload={retry} />
        </Suspense>
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
      // Offline, a chapter never read while owned cannot open: say it needs the network, not that it failed.
      body = (
        <Suspense fallback={<div className="reader-loading" aria-busy="true" />}>
          <OfflineChapterNote
            bookId={bookId}
            number={number}
            onRetry={retry}
            online={<ReaderNote onRetry={retry} />}
          />
        </Suspense>
      );
      break;
  }

  const barsVisible = menuVisible || !showsPages;
  const looks = `${settings.night ? 'is-night' : ''} ${settings.gaps ? 'has-gaps' : ''}`;
  return (
    <main className={`reader ${looks}`}>
      <ReaderTopBar
        visible={barsVisible}
        bookName={bookName}
        chapterTitle={chapterTitle}
        onShow={showMenus}
        onReport={showsPages ? reportPage : undefined}
      />
      {body}
      {showsPages && settings.autoScroll && (
        <Suspense fallback={null}>
          <AutoScrollControl
            running={auto.running}
            speed={settings.speed}
            onPause={auto.pause}
            onResume={auto.start}
            onSpeed={settings.setSpeed}
            onOff={() => onAutoScroll(false)}
          />
        </Suspense>
      )}
      <ReaderBottomBar
        visible={barsVisible}
        favourite={favourite}
        settingsOpen={settingsOpen}
        settingsButton={settingsButton}
        onCatalog={toCatalog}
        onPrevious={previous}
        onNext={next}
        onFavourite={toggleFavourite}
        onSettings={openSettings}
        onShow={showMenus}
      />
      {settingsLoaded && (
        <Suspense fallback={null}>
          <ReaderSettings visible={settingsOpen} onClose={closeSettings} onAutoScroll={onAutoScroll} />
        </Suspense>
      )}
    </main>
  );
}
