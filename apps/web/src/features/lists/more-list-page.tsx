import type { Book } from '@yueman/contract';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { AdCarousel } from '../../components/ad-carousel.tsx';
import { PagedList } from '../../components/paged-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { ListBodySkeleton } from '../../components/skeletons/parts.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { MORE_LIST_TITLES, MORE_LISTS, type MoreList } from '../../lib/paths.ts';
import { type ListSource, useListPages } from './api/list-page.ts';
import { ListChunk } from './components/list-chunk.tsx';
import './lists.css';

/** The six 'more' lists, by the last path segment (docs/decisions.md). */
const SOURCES: Record<MoreList, ListSource> = {
  recommend: 'e_recommend',
  new: 'update',
  latest: 'new',
  kkbg: 'kkbg',
  ranked: 'hot',
  'new-on': 'new_on',
};

export default function MoreListPage() {
  const { pathname } = useLocation();
  const last = pathname.split('/').filter(Boolean).pop() ?? '';
  const segment = MORE_LISTS.find((list) => list === last) ?? 'recommend';
  const ranked = segment === 'ranked';
  const query = useListPages(SOURCES[segment]);
  const ads = query.data?.pages[0]?.adList ?? [];
  const renderPage = useCallback(
    (p: { bookList: Book[] }, i: number) => <ListChunk books={p.bookList} page={i + 1} ranked={ranked} />,
    [ranked],
  );

  return (
    <main className="page more-list">
      <TopBar title={MORE_LIST_TITLES[segment]} />
      <AdCarousel ads={ads} />
      <PagedList
        query={query}
        renderPage={renderPage}
        className="ml-list"
        testId="more-list"
        placeholder={<ListBodySkeleton />}
      />
      <ServiceLinks />
    </main>
  );
}
