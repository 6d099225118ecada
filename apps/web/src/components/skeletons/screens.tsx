import type { ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { searchPath } from '../../lib/paths.ts';
import {
  Bone,
  BookBodySkeleton,
  BookRowsSkeleton,
  CatalogBodySkeleton,
  ChipRowSkeleton,
  ChipsSkeleton,
  FormSkeleton,
  HomeBodySkeleton,
  ListBodySkeleton,
  PacksSkeleton,
  RecordRowsSkeleton,
  SkeletonBar,
} from './parts.tsx';

/**
 * What a route shows from the first frame until its screen's code is there (app/routes.tsx): the screen's frame
 * (its header or top bar; the tab bar stays) and placeholders shaped like its content. When the code did not
 * arrive, the error boundary draws the same frame with `children` (the message and 重试) in place of the
 * placeholders.
 */
export type ScreenSkeleton = (props: { children?: ReactNode }) => ReactNode;

function Frame(props: { className?: string; head?: ReactNode; body: ReactNode; children?: ReactNode }) {
  const failed = props.children !== undefined;
  return (
    <main
      className={`page sk-screen ${failed ? 'sk-still' : ''} ${props.className ?? ''}`}
      aria-busy={failed ? undefined : true}
      data-testid={failed ? 'screen-failed' : 'screen-skeleton'}
    >
      {props.head}
      {failed ? props.children : props.body}
    </main>
  );
}

export const HomeSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    head={
      <header className="sk-home-head">
        <span className="sk-home-logo">阅漫</span>
        <Link to={searchPath()} className="sk-home-search" aria-label="搜索书名或作者">
          <span className="icon-search" aria-hidden />
          书名或作者
        </Link>
      </header>
    }
    body={<HomeBodySkeleton />}
  >
    {children}
  </Frame>
);

export const CategorySkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    head={
      <header className="sk-cat-head">
        <h1>分类</h1>
        <ChipRowSkeleton count={3} />
        <ChipRowSkeleton count={7} />
      </header>
    }
    body={<BookRowsSkeleton count={5} />}
  >
    {children}
  </Frame>
);

function ShelfHead() {
  const history = new URLSearchParams(useLocation().search).get('active') === 'history';
  return (
    <>
      <header className="sk-shelf-head">
        <h1>我的书架</h1>
        <span className="sk-shelf-search">
          <span className="icon-search" aria-hidden />
        </span>
      </header>
      <div className="sk-tabs">
        <span className={history ? '' : 'sk-tab-on'}>
          <span>我的收藏</span>
        </span>
        <span className={history ? 'sk-tab-on' : ''}>
          <span>阅读历史</span>
        </span>
      </div>
    </>
  );
}

export const ShelfSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    className="page-grey"
    head={<ShelfHead />}
    body={
      <div className="sk sk-shelf-list" aria-hidden>
        {[1, 2, 3].map((i) => (
          <div key={i} className="sk-shelf-row">
            <Bone className="sk-cover" w={72} h="auto" r={6} />
            <div className="sk-row-text">
              <Bone w="60%" h={18} />
              <Bone w="40%" h={13} />
              <Bone w="50%" h={13} />
              <Bone className="sk-row-meta" w="45%" h={13} />
            </div>
            <Bone w={72} h={30} r={15} />
          </div>
        ))}
      </div>
    }
  >
    {children}
  </Frame>
);

export const UserSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    className="page-grey"
    head={
      <header className="sk sk-user-head sk-on-color">
        <span className="sk-avatar" />
        <div className="sk-user-id">
          <Bone w={128} h={22} />
          <Bone w={168} h={12} />
        </div>
        <Bone w={68} h={26} r={13} />
      </header>
    }
    body={
      <div className="sk" aria-hidden>
        <div className="sk-card sk-user-card">
          {[1, 2].map((i) => (
            <div key={i} className="sk-field">
              <Bone w={28} h={14} />
              <Bone w="50%" h={16} />
            </div>
          ))}
        </div>
        <div className="sk-card sk-user-wallet">
          {[1, 2].map((i) => (
            <div key={i}>
              <Bone w={56} h={26} />
              <Bone w={56} h={12} />
            </div>
          ))}
          <Bone w={64} h={32} r={16} />
        </div>
        <Bone className="sk-vip-card" h={66} r={12} />
        <div className="sk-card sk-menu">
          {[1, 2, 3, 4, 5, 6].map((i) => (
            <div key={i} className="sk-menu-row">
              <Bone w={72} h={15} />
            </div>
          ))}
        </div>
      </div>
    }
  >
    {children}
  </Frame>
);

/** A screen under a top bar: the bar with `title`, then `body`. */
const barred =
  (title: string, body: ReactNode, className = ''): ScreenSkeleton =>
  ({ children }) => (
    <Frame className={className} head={<SkeletonBar title={title} />} body={body}>
      {children}
    </Frame>
  );

export const moreListSkeleton = (title: string) => barred(title, <ListBodySkeleton />);

/** A screen that is its top bar and a frame of another site (the pay page). */
export const barSkeleton = (title: string) => barred(title, null);

function SearchBody() {
  const [params] = useSearchParams();
  if (params.get('content')) return <BookRowsSkeleton />;
  return (
    <div className="sk sk-search-start" aria-hidden>
      <h2>热门搜索</h2>
      <ChipsSkeleton />
      <h2>搜索历史</h2>
      <Bone w={96} h={13} />
    </div>
  );
}

export const SearchSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    head={
      <>
        <SkeletonBar title="搜索" />
        <div className="sk-search-bar">
          <span className="sk-search-field">
            <span className="icon-search" aria-hidden />
            书名或作者
          </span>
          <span className="sk-search-submit">搜索</span>
        </div>
      </>
    }
    body={<SearchBody />}
  >
    {children}
  </Frame>
);

export const BookSkeleton = barred('漫画详情', <BookBodySkeleton />, 'page-grey');

function CatalogBar() {
  const [params] = useSearchParams();
  return <SkeletonBar title={params.get('title') || '目录'} />;
}

export const CatalogSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame className="page-grey" head={<CatalogBar />} body={<CatalogBodySkeleton />}>
    {children}
  </Frame>
);

function ReaderBar() {
  const [params] = useSearchParams();
  return <SkeletonBar title={params.get('title') ?? ''} dark />;
}

export const ReaderSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    className="sk-reader"
    head={<ReaderBar />}
    body={
      <div className="sk" aria-hidden>
        <Bone className="sk-reader-page" h="auto" r={0} />
      </div>
    }
  >
    {children}
  </Frame>
);

export const PurchaseSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    className="page-grey"
    head={<SkeletonBar title="充值中心" />}
    body={
      <>
        <div className="sk sk-wallet sk-on-color" aria-hidden>
          <div className="sk-col">
            <Bone w={64} h={13} />
            <Bone w={96} h={30} />
          </div>
          <div className="sk-col sk-col-end">
            <Bone w={104} h={12} />
            <Bone w={80} h={12} />
          </div>
        </div>
        <PacksSkeleton />
      </>
    }
  >
    {children}
  </Frame>
);

/** The account screens and the report page: a top bar over a note, a card of fields and a button. */
export const formSkeleton = (title: string) => barred(title, <FormSkeleton />, 'page-grey');

/** 消费记录: a top bar over a card of rows. */
export const RecordsSkeleton = barred('消费记录', <RecordRowsSkeleton />, 'page-grey');
/** 我的阅读券: the same rows under its own title. */
export const TicketsSkeleton = barred('我的阅读券', <RecordRowsSkeleton />, 'page-grey');

/** The prompt pages and /index: the brand, centred. */
export const PlainSkeleton: ScreenSkeleton = ({ children }) => (
  <Frame
    body={
      <div className="sk sk-plain" aria-hidden>
        <span className="sk-home-logo">阅漫</span>
        <Bone w={160} h={14} />
      </div>
    }
  >
    {children}
  </Frame>
);
