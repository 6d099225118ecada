import type { Book, HomeIndex } from '@yueman/contract';
import { memo, startTransition, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { AdCarousel } from '../../components/ad-carousel.tsx';
import { BookRow, BookTile } from '../../components/book-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { HomeBodySkeleton } from '../../components/skeletons/parts.tsx';
import { calendarPath, moreListPath, searchPath } from '../../lib/paths.ts';
import { useHomeIndex } from './api/home-index.ts';
import { DownloadBanner, VipBanner } from './components/banners.tsx';
import { BigHit } from './components/big-hit.tsx';
import { RecentReading } from './components/recent-reading.tsx';
import { Section } from './components/section.tsx';
import './home.css';

const SHOWN = 6;

const TileGrid = memo(function TileGrid({ books, eager = false }: { books: Book[]; eager?: boolean }) {
  return (
    <div className="home-grid">
      {books.slice(0, SHOWN).map((b) => (
        <BookTile key={b.bookId} book={b} eager={eager} />
      ))}
    </div>
  );
});

const TileStrip = memo(function TileStrip({ books }: { books: Book[] }) {
  return (
    <div className="home-strip">
      {books.slice(0, SHOWN).map((b) => (
        <BookTile key={b.bookId} book={b} />
      ))}
    </div>
  );
});

/** The sections below the first screen. */
function sectionsBelow(data: HomeIndex) {
  return [
    <Section
      key="update"
      title="每日更新"
      more={moreListPath('new')}
      testId="home-update"
      extra={
        <Link to={calendarPath()} className="home-calendar">
          更新日历
        </Link>
      }
    >
      <TileStrip books={data.updateList} />
    </Section>,
    <Section key="latest" title="新书" more={moreListPath('latest')} testId="home-latest">
      <TileGrid books={data.newList} />
    </Section>,
    <Section key="kkbg" title="大咖" more={moreListPath('kkbg')} testId="home-kkbg">
      <div className="home-bighits">
        {data.kkbgList.slice(0, 5).map((b, i) => (
          <BigHit key={b.bookId} book={b} wide={i === 0} />
        ))}
      </div>
    </Section>,
    <Section key="ranked" title="人气排行" more={moreListPath('ranked')} testId="home-ranked">
      <div className="home-ranked">
        {data.hotList.slice(0, 3).map((b, i) => (
          <BookRow key={b.bookId} book={b} rank={i + 1} />
        ))}
      </div>
    </Section>,
    <Section key="new-on" title="新书速递" more={moreListPath('new-on')} testId="home-new-on">
      <TileGrid books={data.newOnList} />
    </Section>,
  ];
}

export default function HomePage() {
  const { data, isPending, isError, refetch } = useHomeIndex();
  // The first screen renders at once; the sections below it follow one per task, each in a transition that
  // React slices into short tasks. One section at a time also keeps each commit (DOM, effects, layout) short,
  // so a slow phone stays responsive while they build (Lighthouse's total blocking time).
  const below = data ? sectionsBelow(data) : [];
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= below.length) return;
    const next = setTimeout(() => startTransition(() => setShown((n) => n + 1)), 0);
    return () => clearTimeout(next);
  }, [shown, below.length]);
  const allShown = below.length > 0 && shown >= below.length;
  return (
    <main className="page home">
      <header className="home-head">
        <span className="home-logo">阅漫</span>
        <Link to={searchPath()} className="home-search" aria-label="搜索书名或作者">
          <span className="icon-search" aria-hidden />
          书名或作者
        </Link>
      </header>
      {isPending && (
        <div aria-busy="true">
          <HomeBodySkeleton />
        </div>
      )}
      {isError && (
        <button type="button" className="list-retry" onClick={() => void refetch()}>
          加载失败，点击重试
        </button>
      )}
      {data && (
        <>
          <AdCarousel ads={data.adList} />
          <VipBanner />
          <RecentReading />
          <Section title="推荐" more={moreListPath('recommend')} testId="home-recommend">
            <TileGrid books={data.recommendList} eager />
          </Section>
          {below.slice(0, shown)}
        </>
      )}
      {/* Below the sections only once they are there: rendered earlier, they would be pushed down (layout shift). */}
      {!isPending && (allShown || isError) && (
        <>
          <DownloadBanner />
          <ServiceLinks />
        </>
      )}
    </main>
  );
}
