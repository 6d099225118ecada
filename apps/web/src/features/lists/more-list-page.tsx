import type { Book } from '@yueman/contract';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { AdCarousel } from '../../components/ad-carousel.tsx';
import { PagedList } from '../../components/paged-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import type { MoreList } from '../../lib/paths.ts';
import { type ListSource, useListPages } from './api/list-page.ts';
import { ListChunk } from './components/list-chunk.tsx';
import './lists.css';

/** The six 'more' lists, by the last path segment (docs/decisions.md). */
const RECOMMEND = { title: '推荐', source: 'e_recommend' as ListSource };
const LISTS: Record<MoreList, { title: string; source: ListSource }> = {
  recommend: RECOMMEND,
  new: { title: '每日更新', source: 'update' },
  latest: { title: '新书', source: 'new' },
  kkbg: { title: '大咖', source: 'kkbg' },
  ranked: { title: '人气排行', source: 'hot' },
  'new-on': { title: '新书速递', source: 'new_on' },
};

export default function MoreListPage() {
  const { pathname } = useLocation();
  const segment = pathname.split('/').filter(Boolean).pop() ?? 'recommend';
  const list = LISTS[segment as MoreList] ?? RECOMMEND;
  const ranked = segment === 'ranked';
  const query = useListPages(list.source);
  const ads = query.data?.pages[0]?.adList ?? [];
  const renderPage = useCallback(
    (p: { bookList: Book[] }, i: number) => <ListChunk books={p.bookList} page={i + 1} ranked={ranked} />,
    [ranked],
  );

  return (
    <main className="page more-list">
      <TopBar title={list.title} />
      <AdCarousel ads={ads} />
      <PagedList query={query} renderPage={renderPage} className="ml-list" testId="more-list" />
      <ServiceLinks />
    </main>
  );
}
