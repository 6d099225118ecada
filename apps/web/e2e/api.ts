import type { APIRequestContext, Page } from '@playwright/test';
import type { BookDetail, RechargeResponse, UserInfo } from '@yueman/contract';

// The server's answers a spec compares the screens with, read over HTTP with the session of the page's browser
// context (page.request shares its cookies) or with none (the request fixture).

/** The `data` of a GET's answer envelope ({ result, code, msg, data }). */
export async function apiData<T>(request: APIRequestContext, url: string): Promise<T> {
  return ((await (await request.get(url)).json()) as { data: T }).data;
}

export const bookDetail = (request: APIRequestContext, bookId: number) =>
  apiData<BookDetail>(request, `/api/book/detail/${bookId}`);

/** The user as the server knows them now (balance, VIP). */
export const userInfo = (page: Page) => apiData<UserInfo>(page.request, '/api/user/info');

/** The recharge centre's packs, channels and balance for this visitor, as a client of `appType` gets them. */
export const rechargeOf = (page: Page, appType = 'wap_browser') =>
  apiData<RechargeResponse>(page.request, `/api/user/recharge?appType=${appType}`);
