// Every in-app address, built in one place (the screens' route patterns are in app/routes.tsx). Links, navigation,
// the pay gateway's return address and the report page's way back all come from here.

const withQuery = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query)}`;

export const indexPath = () => '/index';
export const homePath = () => '/home';
export const categoryPath = () => '/category';
export const searchPath = () => '/search';
export const pcPath = () => '/pc';

/** The six 'more' lists under /home (docs/decisions.md). */
export const MORE_LISTS = ['recommend', 'new', 'latest', 'kkbg', 'ranked', 'new-on'] as const;
export type MoreList = (typeof MORE_LISTS)[number];
/** Their titles (the screen's top bar, and its skeleton's before the screen's code is here). */
export const MORE_LIST_TITLES: Record<MoreList, string> = {
  recommend: '推荐',
  new: '每日更新',
  latest: '新书',
  kkbg: '大咖',
  ranked: '人气排行',
  'new-on': '新书速递',
};
export const moreListPath = (list: MoreList) => `/home/${list}`;

/** The shelf, on its favourites or (active=history) its reading history. */
export const shelfPath = (tab: 'favourites' | 'history' = 'favourites') =>
  tab === 'history' ? withQuery('/shelf', { active: 'history' }) : '/shelf';

/** The release calendar (更新日历): the week's books by China day. */
export const calendarPath = () => '/calendar';

export const bookPath = (bookId: number | string) => `/book/${bookId}`;

/** The catalogue; its top bar shows the book's title. */
export const catalogPath = (bookId: number, title: string) => withQuery(`/book/${bookId}/catalog`, { title });

/**
 * A chapter in the reader. The titles, when known, show in its top bar before the chapter has loaded; title2
 * (the chapter's) only when there is one.
 */
export function readerPath(
  bookId: number | string,
  number: number | string,
  title?: string,
  title2?: string,
) {
  const path = `/book/read/${bookId}/${number}`;
  if (title === undefined) return path;
  return withQuery(path, title2 ? { title, title2 } : { title });
}

/** The recharge centre; from a chapter it names it, so paying leads back there. */
export const purchasePath = (from?: { bookId: number; number: number }) =>
  from ? `/purchase?bookId=${from.bookId}&number=${from.number}` : '/purchase';

/** The cashier of an app channel (its payUrl) in a frame. */
export const payPagePath = (goUrl: string) => `/user/purchase/pay?goUrl=${encodeURIComponent(goUrl)}`;

export const userPath = () => '/user';
export const loginPath = () => '/user/login';
export const bindPath = () => '/user/bind';
export const passwordPath = () => '/user/password';
export const findAccountPath = () => '/user/find-account';
export const recordsPath = () => '/user/purchase/history';
/** 我的阅读券. */
export const ticketsPath = () => '/user/tickets';

/** The complaint form, with the page to return to and the customer-service address to offer. */
export const reportPath = (back: string, serviceUrl: string) =>
  `/h5/report?vueReturnUrl=${encodeURIComponent(back)}${serviceUrl ? `&serviceUrl=${encodeURIComponent(serviceUrl)}` : ''}`;

/** The complaint form about one page of a chapter (举报此页 in the reader's menu), returning to the reader. */
export const reportPagePath = (
  back: string,
  serviceUrl: string,
  page: { bookId: number; number: number; page: number; title: string },
) =>
  `${reportPath(back, serviceUrl)}&${new URLSearchParams({
    bookId: String(page.bookId),
    number: String(page.number),
    page: String(page.page),
    title: page.title,
  })}`;

/** Where a hand-off link (out of a chat app) lands: the account is taken over, then `to` opens. */
export const handoffPath = () => '/handoff';

/** The chat-app prompt, with the address the reader was opening. */
export const openInBrowserPath = (from?: string) =>
  from === undefined ? '/open-in-browser' : `/open-in-browser?from=${encodeURIComponent(from)}`;

/**
 * What a reader in WeChat's own browser may open without the 'open in your browser' prompt: the recharge centre (it
 * offers only what pays inside WeChat), the account centre it returns to after paying, and login (to pay for an
 * account made in another browser).
 */
export const WECHAT_PAY_PATHS: ReadonlySet<string> = new Set(['/purchase', '/user', '/user/login']);

/** A positive whole number from an address's parameter (a book id, a chapter number), or null. */
export function positiveId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}
