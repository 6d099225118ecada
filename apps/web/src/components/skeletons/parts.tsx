import Skeleton from 'antd-mobile/es/components/skeleton';
import type { CSSProperties, ReactNode } from 'react';
import { BackButton, HomeButton } from '../bar-buttons.tsx';
import './skeletons.css';

// Placeholders shaped like the screens' content: antd-mobile's Skeleton blocks laid out as the screens lay out
// theirs. They are in the main bundle (each route's fallback, and the screens' own loading states), so they stay
// small: plain blocks, no pictures (docs/decisions.md, "Never a blank screen").

type Size = number | string;
const css = (v: Size) => (typeof v === 'number' ? `${v}px` : v);
const times = (n: number) => Array.from({ length: n }, (_, i) => i);

/** One placeholder block; `h="auto"` with a class's aspect-ratio gives a cover's shape. */
export function Bone({
  w,
  h = 14,
  r = 4,
  className,
}: {
  w?: Size;
  h?: Size;
  r?: number;
  className?: string;
}) {
  const style = {
    ...(w !== undefined && { '--width': css(w) }),
    '--height': css(h),
    '--border-radius': `${r}px`,
  } as CSSProperties;
  return <Skeleton animated className={className} style={style} />;
}

/**
 * The top bar of inner screens (components/top-bar.tsx) as it looks before the screen's code is here: the
 * title, and a back arrow and 首页 that already work.
 */
export function SkeletonBar({ title, dark = false }: { title: string; dark?: boolean }) {
  return (
    <div className={`top-bar sk-bar ${dark ? 'sk-bar-dark' : ''}`}>
      <span className="sk-bar-side">
        <BackButton />
      </span>
      <span className="sk-bar-title">{title}</span>
      <span className="sk-bar-side sk-bar-right">
        <HomeButton />
      </span>
    </div>
  );
}

/** Large book rows (components/book-list.tsx BookRow): cover, title, author, two lines of abstract, the tags. */
export function BookRowsSkeleton({ count = 4 }: { count?: number }) {
  return (
    <div className="sk" aria-hidden data-testid="rows-skeleton">
      {times(count).map((i) => (
        <div key={i} className="sk-row">
          <Bone className="sk-cover" w={90} h="auto" r={6} />
          <div className="sk-row-text">
            <Bone w="55%" h={18} />
            <Bone w="30%" h={13} />
            <Bone w="95%" h={13} />
            <Bone w="70%" h={13} />
            <Bone className="sk-row-meta" w="50%" h={16} />
          </div>
        </div>
      ))}
    </div>
  );
}

/** Small tiles three a row (BookTile): cover, title, category. */
export function TileGridSkeleton({ count, className = '' }: { count: number; className?: string }) {
  return (
    <div className={`sk-tiles ${className}`}>
      {times(count).map((i) => (
        <div key={i} className="sk-tile">
          <Bone className="sk-cover" h="auto" r={6} />
          <Bone w="80%" h={15} />
          <Bone w="40%" h={12} />
        </div>
      ))}
    </div>
  );
}

/** The ad carousel's place (components/ad-carousel.css). */
export const BannerSkeleton = () => (
  <div className="sk-banner">
    <Bone className="sk-banner-bone" h="auto" r={10} />
  </div>
);

/** A home section: its title and 更多, then its books. */
export const SectionSkeleton = ({ children }: { children: ReactNode }) => (
  <div className="sk-section">
    <div className="sk-section-head">
      <Bone w={64} h={22} />
      <Bone w={40} h={14} />
    </div>
    {children}
  </div>
);

/** The home screen below its header: the carousel, the VIP banner and the first section. */
export const HomeBodySkeleton = () => (
  <div className="sk" aria-hidden>
    <BannerSkeleton />
    <Bone className="sk-vip" h={42} r={10} />
    <SectionSkeleton>
      <TileGridSkeleton count={6} />
    </SectionSkeleton>
  </div>
);

/** A 'more' list below its top bar: the carousel, page 1's three tiles, then rows. */
export const ListBodySkeleton = () => (
  <div className="sk" aria-hidden>
    <BannerSkeleton />
    <TileGridSkeleton count={3} className="sk-tiles-list" />
    <BookRowsSkeleton count={3} />
  </div>
);

/** A row of filter chips (the category screen's). */
export const ChipRowSkeleton = ({ count }: { count: number }) => (
  <div className="sk sk-chip-row" aria-hidden>
    {times(count).map((i) => (
      <Bone key={i} w={44} h={28} r={14} />
    ))}
  </div>
);

/** Word chips (the search screen's hot words). */
export const ChipsSkeleton = () => (
  <div className="sk sk-chip-wrap" aria-hidden>
    {[64, 88, 56, 96, 72, 60, 84].map((w) => (
      <Bone key={w} w={w} h={30} r={15} />
    ))}
  </div>
);

/** The book detail below its top bar: the covers, title and counts, the three buttons, abstract and 目录. */
export const BookBodySkeleton = () => (
  <div className="sk" aria-hidden>
    <div className="sk-book-head">
      <Bone className="sk-hero" h="auto" r={0} />
      <div className="sk-book-body">
        <div className="sk-book-cover">
          <Bone className="sk-cover" h="auto" r={6} />
        </div>
        <div className="sk-book-text">
          <Bone w="80%" h={22} />
          <Bone w="45%" h={13} />
          <Bone w="70%" h={16} />
          <Bone w="40%" h={15} />
        </div>
      </div>
      <div className="sk-book-actions">
        <Bone h={42} r={21} />
        <Bone h={42} r={21} />
        <Bone h={42} r={21} />
      </div>
    </div>
    <div className="sk-book-section">
      <Bone w="100%" h={14} />
      <Bone w="60%" h={14} />
    </div>
    <div className="sk-book-section">
      <Bone w={96} h={18} />
      <div className="sk-book-chapters">
        {times(6).map((i) => (
          <Bone key={i} h={38} r={8} />
        ))}
      </div>
    </div>
  </div>
);

/** The catalogue below its top bar: 共N话 and the order toggle, then chapter rows with their thumbnails. */
export const CatalogBodySkeleton = () => (
  <div className="sk" aria-hidden>
    <div className="sk-catalog-head">
      <Bone w={56} h={14} />
      <Bone w={48} h={22} r={11} />
    </div>
    <div className="sk-catalog-list">
      {times(8).map((i) => (
        <div key={i} className="sk-chapter">
          <Bone className="sk-thumb" w={120} h="auto" r={6} />
          <Bone w="40%" h={15} />
          <Bone className="sk-push" w={40} h={18} r={9} />
        </div>
      ))}
    </div>
  </div>
);

/** The recharge centre's two groups of packs: coins two a row, VIP three a row (as the demo's four and three). */
export const PacksSkeleton = () => (
  <div className="sk" aria-hidden>
    {[4, 3].map((count) => (
      <div key={count} className="sk-pack-group">
        <Bone w={72} h={20} />
        <div className={`sk-pack-grid ${count === 3 ? 'sk-pack-grid-3' : ''}`}>
          {times(count).map((i) => (
            <Bone key={i} h={count === 3 ? 108 : 116} r={10} />
          ))}
        </div>
      </div>
    ))}
  </div>
);

/** The account screens (features/account/components/account-layout.tsx): the note, a card of fields, the button. */
export const FormSkeleton = ({ rows = 2 }: { rows?: number }) => (
  <div className="sk" aria-hidden>
    <div className="sk-intro">
      <Bone w="85%" h={14} />
    </div>
    <div className="sk-card sk-form">
      {times(rows).map((i) => (
        <div key={i} className="sk-field">
          <Bone w={36} h={16} />
          <Bone w="55%" h={16} />
        </div>
      ))}
    </div>
    <Bone className="sk-form-button" h={46} r={23} />
  </div>
);

/** 消费记录's card: each record's title and date, and its amount on the right. */
export const RecordRowsSkeleton = () => (
  <div className="sk sk-card sk-records" aria-hidden>
    {times(6).map((i) => (
      <div key={i} className="sk-record">
        <div className="sk-col">
          <Bone w={128} h={17} />
          <Bone w={112} h={12} />
        </div>
        <div className="sk-col sk-col-end">
          <Bone w={72} h={18} />
          <Bone w={56} h={12} />
        </div>
      </div>
    ))}
  </div>
);
