import type { Book } from '@yueman/contract';
import { Toast } from 'antd-mobile';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ServiceLinks } from '../../components/service-links.tsx';
import { useShelfStore } from '../../lib/shelf-store.ts';
import { useUserStore } from '../../lib/user-store.ts';
import { useBook } from './api/get-book.ts';
import { useReadChapter } from './api/read-chapter.ts';
import { refreshUser } from './api/refresh-user.ts';
import { ChapterPages } from './components/chapter-pages.tsx';
import { PayOverlay } from './components/pay-overlay.tsx';
import { ReaderBottomBar, ReaderTopBar } from './components/reader-bars.tsx';
import { useMenuVisibility } from './components/use-menu-visibility.ts';
import { MESSAGES, positiveId, readerPath } from './reader-helpers.ts';
import './reader.css';

/** Alerts hide after about 1.5 s (spec section 9). */
const alert = (content: string) => Toast.show({ content, duration: 1500 });

export default function ReaderPage() {
  const params = useParams();
  const bookId = positiveId(params.bookId);
  const number = positiveId(params.number);
  if (bookId === null || number === null) return <ReaderMessage text={MESSAGES.invalid} home />;
  return <Reader key={bookId} bookId={bookId} number={number} />;
}

/** The chapter slides in from the right when the number goes up and from the left when it goes down. */
function useChapterDirection(number: number): 'forward' | 'backward' | 'none' {
  // Kept per chapter, so later renders of the same chapter (its data arriving) keep the direction.
  const [seen, setSeen] = useState({ number, direction: 'none' as 'forward' | 'backward' | 'none' });
  if (seen.number !== number) {
    const direction = number > seen.number ? 'forward' : 'backward';
    setSeen({ number, direction });
    return direction;
  }
  return seen.direction;
}

function Reader({ bookId, number }: { bookId: number; number: number }) {
  const direction = useChapterDirection(number);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const chapter = useReadChapter(bookId, number, true);
  const envelope = chapter.data;
  const info = envelope && (envelope.result || envelope.code === 999) ? envelope.data : null;
  const pages = envelope?.result && info ? info : null;

  // The Book for history and the shelf: the one kept locally, else the detail call.
  const historyBook = useShelfStore((s) => s.history.find((h) => h.bookInfo.bookId === bookId)?.bookInfo);
  const favouriteBook = useShelfStore((s) => s.favourites.find((b) => b.bookId === bookId));
  const fetched = useBook(bookId, !historyBook && !favouriteBook);
  const book: Book | undefined = historyBook ?? favouriteBook ?? fetched.data;
  const favourite = !!favouriteBook;
  const toggleFavourite = useShelfStore((s) => s.toggleFavourite);
  const recordReading = useShelfStore((s) => s.recordReading);

  const userInfo = useUserStore((s) => s.userInfo);
  const balance = userInfo?.avaliableAmount ?? 0;

  const [menuVisible, setMenuVisible] = useMenuVisibility();
  const [payStep, setPayStep] = useState<'buy' | 'recharge'>('buy');

  // A new chapter starts at its top, with the menus shown and the buy step reset.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each new chapter number
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
    setMenuVisible(true);
    setPayStep('buy');
  }, [number, setMenuVisible]);

  // Reading history: each chapter shown is recorded once.
  const recorded = useRef('');
  useEffect(() => {
    if (!pages || !book) return;
    const key = `${bookId}/${number}`;
    if (recorded.current === key) return;
    recorded.current = key;
    recordReading(book, number);
  }, [pages, book, bookId, number, recordReading]);

  // Code 101: refresh the user (spec section 8); when a user is established, the chapter is asked again.
  const code = envelope?.code;
  useEffect(() => {
    if (code === 101) void refreshUser();
  }, [code]);
  const userId = userInfo?.userId ?? 0;
  const lastUserId = useRef(userId);
  useEffect(() => {
    if (lastUserId.current === userId) return;
    lastUserId.current = userId;
    if (userId && code === 101) void chapter.refetch();
  }, [userId, code, chapter]);

  const bookName = info?.bookName || search.get('title') || book?.title || '';
  const chapterTitle = info?.title || search.get('title2') || `第${number}话`;

  const go = useCallback(
    (to: number) => navigate(readerPath(bookId, to, bookName), { replace: true }),
    [navigate, bookId, bookName],
  );
  const previous = () => {
    const to = info ? info.lastNumber : number - 1;
    if (number <= 1 || to <= 0) return alert(MESSAGES.first);
    go(to);
  };
  const next = () => {
    const to = info ? info.nextNumber : code === 400 ? 0 : number + 1;
    if (!to) return alert(MESSAGES.last);
    go(to);
  };
  const onFavourite = () => {
    if (!book) return alert('书本信息加载中，请稍候');
    toggleFavourite(book);
    alert(favourite ? '已取消收藏' : '已加入收藏');
  };
  const toCatalog = () =>
    navigate(`/book/${bookId}/catalog?${new URLSearchParams({ title: bookName }).toString()}`);

  const needsPurchase = envelope?.code === 999 && info;
  const barsVisible = menuVisible || !pages;

  let body: React.ReactNode;
  if (pages) {
    body = (
      <>
        {/* Tapping the pages shows or hides the menus. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the menus are also reachable at the top and bottom */}
        <div
          key={number}
          className={`reader-tap chapter-enter-${direction}`}
          onClick={() => setMenuVisible((v) => !v)}
        >
          <ChapterPages info={pages} />
        </div>
        <div className="reader-end">
          <p>本话完</p>
          {pages.nextNumber ? (
            <button type="button" className="reader-end-next" onClick={() => go(pages.nextNumber)}>
              继续阅读下一话
            </button>
          ) : (
            <p className="reader-end-last">已经是最新一话啦，敬请期待</p>
          )}
          <ServiceLinks />
        </div>
      </>
    );
  } else if (needsPurchase) {
    body = (
      <>
        <PayOverlay
          kind="buy"
          show={payStep === 'buy'}
          info={needsPurchase}
          balance={balance}
          onBuy={() => (balance < needsPurchase.bookPrice ? setPayStep('recharge') : alert(MESSAGES.buySoon))}
          onRecharge={() => navigate(`/purchase?bookId=${bookId}`)}
        />
        <PayOverlay
          kind="recharge"
          show={payStep === 'recharge'}
          info={needsPurchase}
          balance={balance}
          onBuy={() => alert(MESSAGES.buySoon)}
          onRecharge={() => navigate(`/purchase?bookId=${bookId}`)}
        />
      </>
    );
  } else if (chapter.isPending) {
    body = <div className="reader-loading" aria-busy="true" />;
  } else if (code === 400) {
    body = <ReaderNote text={MESSAGES.noMore} />;
  } else if (code === 404) {
    body = <ReaderNote text={MESSAGES.invalid} home />;
  } else {
    // 101, a transport failure or anything unexpected.
    body = <ReaderNote text={MESSAGES.noUser} onRetry={() => void chapter.refetch()} />;
  }

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
        onFavourite={onFavourite}
      />
    </main>
  );
}

function ReaderNote({ text, home = false, onRetry }: { text: string; home?: boolean; onRetry?: () => void }) {
  return (
    <div className="reader-note" role="alert">
      <p>{text}</p>
      {home && (
        <Link to="/home" className="reader-note-button">
          返回首页
        </Link>
      )}
      {onRetry && (
        <button type="button" className="reader-note-button" onClick={onRetry}>
          重试
        </button>
      )}
    </div>
  );
}

function ReaderMessage({ text, home }: { text: string; home?: boolean }) {
  return (
    <main className="reader">
      <ReaderNote text={text} home={home} />
    </main>
  );
}
