// Visitors through the real register call, and calls made as the web app and the spec's clients make them. One
// place for every test that needs a reader with a session.
import type { TestApp } from './test-app.ts';
import { sessionCookie } from './test-app.ts';

/** Settings for a test file that registers many visitors (the register call is limited per address). */
export const manyVisitorsEnv = { REGISTER_PER_HOUR: '10000' };

export interface Caller {
  cookie?: string;
  /** The socket address the request comes from (app.inject's remoteAddress). */
  ip?: string;
  headers?: Record<string, string>;
}

/** A POST with its fields in the query, as the spec's clients send them. */
export function post(t: TestApp, path: string, query: Record<string, string>, by: Caller = {}) {
  const qs = new URLSearchParams(query).toString();
  return t.app.inject({
    method: 'POST',
    url: `${path}${qs ? `?${qs}` : ''}`,
    remoteAddress: by.ip ?? '127.0.0.1',
    headers: { ...by.headers, ...(by.cookie ? { cookie: by.cookie } : {}) },
  });
}

export interface TestVisitor {
  userId: number;
  account: string;
  /** The generated password, answered once by register. */
  password: string;
  /** `sid=…`, ready for a Cookie header. */
  cookie: string;
}

/** A new visitor: its account, generated password and session cookie. */
export async function registerVisitor(t: TestApp, by: Caller = {}): Promise<TestVisitor> {
  const res = await post(t, '/api/user/register', {}, by);
  if (res.statusCode !== 200) throw new Error(`register answered ${res.statusCode}: ${res.body}`);
  const { userId, account, password } = res.json().data as TestVisitor;
  return { userId, account, password, cookie: sessionCookie(res) };
}

export const login = (t: TestApp, account: string, password: string, by: Caller = {}) =>
  post(t, '/api/user/login', { account, password }, by);

/** The status of /api/user/info with this cookie: 200 while the session lives, 401 after it ended. */
export async function infoStatus(t: TestApp, cookie: string) {
  return (await t.app.inject({ url: '/api/user/info', headers: { cookie } })).statusCode;
}
