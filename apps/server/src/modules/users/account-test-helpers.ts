// Helpers for the account tests: real calls through the app, as the web app makes them.
import type { TestApp } from '../../../test/test-app.ts';
import { sessionCookie } from '../../../test/test-app.ts';

export interface Caller {
  cookie?: string;
  /** The socket address the request comes from (app.inject's remoteAddress). */
  ip?: string;
  headers?: Record<string, string>;
}

export function post(t: TestApp, path: string, query: Record<string, string>, by: Caller = {}) {
  const qs = new URLSearchParams(query).toString();
  return t.app.inject({
    method: 'POST',
    url: `${path}${qs ? `?${qs}` : ''}`,
    remoteAddress: by.ip ?? '127.0.0.1',
    headers: { ...by.headers, ...(by.cookie ? { cookie: by.cookie } : {}) },
  });
}

/** A new visitor: its account, generated password and session cookie. */
export async function registerVisitor(t: TestApp, by: Caller = {}) {
  const res = await post(t, '/api/user/register', {}, by);
  const { userId, account, password } = res.json().data as {
    userId: number;
    account: string;
    password: string;
  };
  return { userId, account, password, cookie: sessionCookie(res) };
}

export const login = (t: TestApp, account: string, password: string, by: Caller = {}) =>
  post(t, '/api/user/login', { account, password }, by);

/** The status of /api/user/info with this cookie: 200 while the session lives, 401 after it ended. */
export async function infoStatus(t: TestApp, cookie: string) {
  return (await t.app.inject({ url: '/api/user/info', headers: { cookie } })).statusCode;
}
