import { useCallback, useMemo } from 'react';
import { useLocation } from 'react-router';
import { AdCarousel } from '../../components/ad-carousel.tsx';
import { PagedList } from '../../components/paged-list.tsx';
import { ServiceLinks } from '../../components/service-links.tsx';
import { TopBar } from '../../components/top-bar.tsx';
import { useScrollRestore } from '../../lib/scroll-restore.ts';
import { type ListSource, useListPages } from './api/list-page.ts';
import { ListChunk } from './components/list-chunk.tsx';
import './lists.css';

/** The six 'more' lists, by the last path segment (docs/decisions.md). */
const RECOMMEND = { title: '推荐', source: 'e_recommend' as ListSource };
const LISTS: Record<string, { title: string; source: ListSource }> = {
  recommend: RECOMMEND,
  new: { title: '每日更新', source: 'update' },
  latest: { title: '新书', source: 'new' },
  kkbg: { title: '大咖', source: 'kkbg' },
  ranked: { title: '人气排行', source: 'hot' },
  'new-on': { title: '新书速递', source: 'new_on' },
};

/** Load the next page within about 10% of the viewport from the bottom (spec section 4). */

export default function MoreListPage() {
  const { pathname } = useLocation();
  const segment = pathname.split('/').filter(Boolean).pop() ?? 'recommend';
  const list = LISTS[segment] ?? RECOMMEND;
  const ranked = segment === 'ranked';
  const query = useListPages(list.source);
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage, isPending, isError, refetch } = query;
  const pages = data?.pages;
  const ready = !!pages;
  useScrollRestore(ready);

  const loadMore = useCallback(async () => {
    if (isFetchingNextPage) return;
    await fetchNextPage({ cancelRefetch: false }).then((r) => {
      if (r.isError) throw r.error;
    });
  }, [fetchNextPage, isFetchingNextPage]);

  const ads = pages?.[0]?.adList ?? [];
  const chunks = useMemo(
    () =>
      (pages ?? []).map((p, i) => (
        <ListChunk key={data?.pageParams[i] as number} books={p.bookList} page={i + 1} ranked={ranked} />
      )),
    [pages, data?.pageParams, ranked],
  );

  return (
    <main className="page more-list">
      <TopBar title={list.title} />
      <AdCarousel ads={ads} />
      <PagedList
        pages={pages}
        chunks={chunks}
        isPending={isPending}
        isError={isError}
        refetch={refetch}
        loadMore={loadMore}
        hasMore={!!hasNextPage}
        className="ml-list"
        testId="more-list"
      />
      <ServiceLinks />
    </main>
  );
}
