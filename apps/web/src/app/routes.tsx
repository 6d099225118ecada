import {
  BookSkeleton,
  barSkeleton,
  CatalogSkeleton,
  CategorySkeleton,
  formSkeleton,
  HomeSkeleton,
  moreListSkeleton,
  PlainSkeleton,
  PurchaseSkeleton,
  ReaderSkeleton,
  RecordsSkeleton,
  type ScreenSkeleton,
  SearchSkeleton,
  ShelfSkeleton,
  TicketsSkeleton,
  UserSkeleton,
} from '../components/skeletons/screens.tsx';
import { MORE_LIST_TITLES, MORE_LISTS, moreListPath } from '../lib/paths.ts';
import { type LazyScreen, lazyScreen } from './lazy-screen.tsx';

/** How a screen enters (spec section 2): horizontal slide, vertical slide, or none. */
export type Transition = 'horizontal' | 'vertical' | 'none';

export interface ScreenRoute {
  path: string;
  screen: LazyScreen;
  /** From the first frame until the screen's code is there: its frame and placeholders of its content. */
  skeleton: ScreenSkeleton;
  transition: Transition;
  /** Depth, so going to a deeper screen slides forward and back slides back. */
  position: number;
  tabBar?: boolean;
}

// One import per screen: the route loads it, and the idle preloading calls the same function.
export const importHome = () => import('../features/home/home-page.tsx');
export const importCategory = () => import('../features/category/category-page.tsx');
export const importShelf = () => import('../features/shelf/shelf-page.tsx');
export const importUser = () => import('../features/user/user-page.tsx');
export const importBookDetail = () => import('../features/book/book-page.tsx');

const Home = lazyScreen(importHome);
const MoreList = lazyScreen(() => import('../features/lists/more-list-page.tsx'));
const Category = lazyScreen(importCategory);
const Shelf = lazyScreen(importShelf);
const User = lazyScreen(importUser);
const Search = lazyScreen(() => import('../features/search/search-page.tsx'));
const BookDetail = lazyScreen(importBookDetail);
const Catalog = lazyScreen(() => import('../features/book/catalog-page.tsx'));
const Reader = lazyScreen(() => import('../features/reader/reader-page.tsx'));
const Report = lazyScreen(() => import('../features/support/report-page.tsx'));
const Pc = lazyScreen(() => import('../features/support/pc-page.tsx'));
const OpenInBrowser = lazyScreen(() => import('../features/support/open-in-browser-page.tsx'));
const Handoff = lazyScreen(() => import('../features/account/handoff-page.tsx'));
const Index = lazyScreen(() => import('../features/support/index-page.tsx'));
const Purchase = lazyScreen(() => import('../features/purchase/purchase-page.tsx'));
const Pay = lazyScreen(() => import('../features/purchase/pay-page.tsx'));
const Login = lazyScreen(() => import('../features/account/login-page.tsx'));
const Bind = lazyScreen(() => import('../features/account/bind-page.tsx'));
const Password = lazyScreen(() => import('../features/account/password-page.tsx'));
const FindAccount = lazyScreen(() => import('../features/account/find-account-page.tsx'));
const Records = lazyScreen(() => import('../features/account/records-page.tsx'));
const Calendar = lazyScreen(() => import('../features/calendar/calendar-page.tsx'));
const Tickets = lazyScreen(() => import('../features/account/tickets-page.tsx'));

/** The tab screens and the book detail, whose code loads when the first screen is idle (app.tsx). */
export const preloadedScreens: LazyScreen[] = [Home, Category, Shelf, User, BookDetail];

/**
 * The landing screen's code, when index.html painted its first screen from the data in the page (home, a book or
 * a free chapter; window.__YM_FIRST_PAINT__): the app renders once it is here, so its first frame is the screen
 * itself drawn over the same boxes, never a skeleton between the two. Every other page renders at once, its skeleton first.
 */
export function firstScreenReady(): Promise<void> {
  if (!window.__YM_FIRST_PAINT__) return Promise.resolve();
  const { pathname } = location;
  return (pathname === '/home' ? Home : pathname.startsWith('/book/read/') ? Reader : BookDetail).preload();
}

export const screens: ScreenRoute[] = [
  { path: '/index', screen: Index, skeleton: PlainSkeleton, transition: 'none', position: 0 },
  { path: '/home', screen: Home, skeleton: HomeSkeleton, transition: 'none', position: 1, tabBar: true },
  ...MORE_LISTS.map((list) => ({
    path: moreListPath(list),
    screen: MoreList,
    skeleton: moreListSkeleton(MORE_LIST_TITLES[list]),
    transition: 'horizontal' as const,
    position: 2,
  })),
  {
    path: '/category',
    screen: Category,
    skeleton: CategorySkeleton,
    transition: 'none',
    position: 1,
    tabBar: true,
  },
  { path: '/shelf', screen: Shelf, skeleton: ShelfSkeleton, transition: 'none', position: 1, tabBar: true },
  { path: '/user', screen: User, skeleton: UserSkeleton, transition: 'none', position: 1, tabBar: true },
  { path: '/calendar', screen: Calendar, skeleton: PlainSkeleton, transition: 'horizontal', position: 2 },
  { path: '/search', screen: Search, skeleton: SearchSkeleton, transition: 'vertical', position: 2 },
  { path: '/book/:id', screen: BookDetail, skeleton: BookSkeleton, transition: 'horizontal', position: 3 },
  {
    path: '/book/:id/catalog',
    screen: Catalog,
    skeleton: CatalogSkeleton,
    transition: 'horizontal',
    position: 4,
  },
  {
    path: '/book/read/:bookId/:number',
    screen: Reader,
    skeleton: ReaderSkeleton,
    transition: 'horizontal',
    position: 5,
  },
  {
    path: '/user/login',
    screen: Login,
    skeleton: formSkeleton('登录'),
    transition: 'horizontal',
    position: 2,
  },
  {
    path: '/user/bind',
    screen: Bind,
    skeleton: formSkeleton('绑定手机'),
    transition: 'horizontal',
    position: 2,
  },
  {
    path: '/user/password',
    screen: Password,
    skeleton: formSkeleton('修改密码'),
    transition: 'horizontal',
    position: 2,
  },
  {
    path: '/user/find-account',
    screen: FindAccount,
    skeleton: formSkeleton('找回充值账号'),
    transition: 'horizontal',
    position: 2,
  },
  {
    path: '/user/purchase/history',
    screen: Records,
    skeleton: RecordsSkeleton,
    transition: 'horizontal',
    position: 2,
  },
  {
    path: '/user/tickets',
    screen: Tickets,
    skeleton: TicketsSkeleton,
    transition: 'horizontal',
    position: 2,
  },
  { path: '/purchase', screen: Purchase, skeleton: PurchaseSkeleton, transition: 'horizontal', position: 6 },
  {
    path: '/user/purchase/pay',
    screen: Pay,
    skeleton: barSkeleton('支付'),
    transition: 'vertical',
    position: 7,
  },
  {
    path: '/h5/report',
    screen: Report,
    skeleton: formSkeleton('投诉举报'),
    transition: 'vertical',
    position: 6,
  },
  { path: '/pc', screen: Pc, skeleton: PlainSkeleton, transition: 'none', position: 0 },
  {
    path: '/open-in-browser',
    screen: OpenInBrowser,
    skeleton: PlainSkeleton,
    transition: 'none',
    position: 0,
  },
  { path: '/handoff', screen: Handoff, skeleton: PlainSkeleton, transition: 'none', position: 0 },
];
