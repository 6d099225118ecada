import { lazy } from 'react';
import { MORE_LISTS, moreListPath } from '../lib/paths.ts';

/** How a screen enters (spec section 2): horizontal slide, vertical slide, or none. */
export type Transition = 'horizontal' | 'vertical' | 'none';

export interface ScreenRoute {
  path: string;
  Screen: React.LazyExoticComponent<React.ComponentType>;
  transition: Transition;
  /** Depth, so going to a deeper screen slides forward and back slides back. */
  position: number;
  tabBar?: boolean;
}

const page = (load: () => Promise<{ default: React.ComponentType }>) => lazy(load);

const Home = page(() => import('../features/home/home-page.tsx'));
const MoreList = page(() => import('../features/lists/more-list-page.tsx'));
const Category = page(() => import('../features/category/category-page.tsx'));
const Shelf = page(() => import('../features/shelf/shelf-page.tsx'));
const User = page(() => import('../features/user/user-page.tsx'));
const Search = page(() => import('../features/search/search-page.tsx'));
const BookDetail = page(() => import('../features/book/book-page.tsx'));
const Catalog = page(() => import('../features/book/catalog-page.tsx'));
const Reader = page(() => import('../features/reader/reader-page.tsx'));
const Report = page(() => import('../features/support/report-page.tsx'));
const Pc = page(() => import('../features/support/pc-page.tsx'));
const OpenInBrowser = page(() => import('../features/support/open-in-browser-page.tsx'));
const Handoff = page(() => import('../features/account/handoff-page.tsx'));
const Index = page(() => import('../features/support/index-page.tsx'));
const Purchase = page(() => import('../features/purchase/purchase-page.tsx'));
const Pay = page(() => import('../features/purchase/pay-page.tsx'));
const Login = page(() => import('../features/account/login-page.tsx'));
const Bind = page(() => import('../features/account/bind-page.tsx'));
const Password = page(() => import('../features/account/password-page.tsx'));
const FindAccount = page(() => import('../features/account/find-account-page.tsx'));
const Records = page(() => import('../features/account/records-page.tsx'));

export const screens: ScreenRoute[] = [
  { path: '/index', Screen: Index, transition: 'none', position: 0 },
  { path: '/home', Screen: Home, transition: 'none', position: 1, tabBar: true },
  ...MORE_LISTS.map((list) => ({
    path: moreListPath(list),
    Screen: MoreList,
    transition: 'horizontal' as const,
    position: 2,
  })),
  { path: '/category', Screen: Category, transition: 'none', position: 1, tabBar: true },
  { path: '/shelf', Screen: Shelf, transition: 'none', position: 1, tabBar: true },
  { path: '/user', Screen: User, transition: 'none', position: 1, tabBar: true },
  { path: '/search', Screen: Search, transition: 'vertical', position: 2 },
  { path: '/book/:id', Screen: BookDetail, transition: 'horizontal', position: 3 },
  { path: '/book/:id/catalog', Screen: Catalog, transition: 'horizontal', position: 4 },
  { path: '/book/read/:bookId/:number', Screen: Reader, transition: 'horizontal', position: 5 },
  { path: '/user/login', Screen: Login, transition: 'horizontal', position: 2 },
  { path: '/user/bind', Screen: Bind, transition: 'horizontal', position: 2 },
  { path: '/user/password', Screen: Password, transition: 'horizontal', position: 2 },
  { path: '/user/find-account', Screen: FindAccount, transition: 'horizontal', position: 2 },
  { path: '/user/purchase/history', Screen: Records, transition: 'horizontal', position: 2 },
  { path: '/purchase', Screen: Purchase, transition: 'horizontal', position: 6 },
  { path: '/user/purchase/pay', Screen: Pay, transition: 'vertical', position: 7 },
  { path: '/h5/report', Screen: Report, transition: 'vertical', position: 6 },
  { path: '/pc', Screen: Pc, transition: 'none', position: 0 },
  { path: '/open-in-browser', Screen: OpenInBrowser, transition: 'none', position: 0 },
  { path: '/handoff', Screen: Handoff, transition: 'none', position: 0 },
];
