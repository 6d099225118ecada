import { Code } from '@yueman/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, data, routes, routeUrl } from './api-client.ts';
import { runtimeConfig } from './runtime-config.ts';

/** What went on the wire: the address, the method, the content type and the body as text. */
interface Sent {
  url: string;
  method: string | undefined;
  type: string | undefined;
  body: string | undefined;
}
let sent: Sent[] = [];
let answer: unknown = { result: true, code: Code.ok, msg: '', data: null };

beforeEach(() => {
  sent = [];
  answer = { result: true, code: Code.ok, msg: '', data: null };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    sent.push({ url, method: init.method, type: headers['content-type'], body: init.body?.toString() });
    return new Response(JSON.stringify(answer));
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  runtimeConfig.staticApiBase = '';
  runtimeConfig.dynamicApiBase = '';
});

describe('call: the route table decides the wire', () => {
  it('fills path parameters and sends static calls to the static base, without a body', async () => {
    runtimeConfig.staticApiBase = 'https://static.yueman.example';
    await call(routes.bookDetail, { params: { bookId: 5 } });
    await call(routes.commonInfo, { params: { branchId: -2 } });
    expect(sent).toEqual([
      {
        url: 'https://static.yueman.example/api/book/detail/5',
        method: 'GET',
        type: undefined,
        body: undefined,
      },
      {
        url: 'https://static.yueman.example/api/common/info/v2/-2',
        method: 'GET',
        type: undefined,
        body: undefined,
      },
    ]);
  });

  it('takes the first method of a route that has two', async () => {
    await call(routes.queryBooks, { params: { publishStatus: 'finish', categoryId: 0, page: 2 } });
    expect(sent[0]).toMatchObject({ url: '/api/book/query/finish/0/2', method: 'GET', body: undefined });
  });

  it('sends the query in the address, leaving out undefined fields', async () => {
    runtimeConfig.dynamicApiBase = 'https://api.yueman.example';
    await call(routes.readChapter, { query: { bookId: 1, number: 2 } });
    await call(routes.search, { query: { content: '斗 罗&', page: undefined } });
    expect(sent).toEqual([
      {
        url: 'https://api.yueman.example/api/book/read_chapter?bookId=1&number=2',
        method: 'GET',
        type: undefined,
        body: undefined,
      },
      {
        url: 'https://api.yueman.example/api/book/search?content=%E6%96%97+%E7%BD%97%26',
        method: 'POST',
        type: undefined,
        body: undefined,
      },
    ]);
  });

  it('sends the fields of a formFields route in a form body, never in the address', async () => {
    await call(routes.login, { query: { account: 'ym123', password: 'p w&=?' } });
    await call(routes.modifyPwd, { query: { password: 'secret' } });
    expect(sent).toEqual([
      {
        url: '/api/user/login',
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        body: 'account=ym123&password=p+w%26%3D%3F',
      },
      {
        url: '/api/user/modifyPwd',
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        body: 'password=secret',
      },
    ]);
  });

  it('sends a body route its form, beside its query (chapter list) or alone (report)', async () => {
    await call(routes.chapterList, { query: { bookId: 9 }, form: { bookId: 9 } });
    await call(routes.report, { form: { reason: '其他', content: undefined, pageUrl: '/book/9' } });
    expect(sent).toEqual([
      {
        url: '/api/book/chapter/list?bookId=9',
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        body: 'bookId=9',
      },
      {
        url: '/api/support/report',
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        body: 'reason=%E5%85%B6%E4%BB%96&pageUrl=%2Fbook%2F9',
      },
    ]);
  });

  it('builds the pay apply address that web channels navigate to on the dynamic base', () => {
    runtimeConfig.dynamicApiBase = 'https://api.yueman.example';
    expect(routeUrl(routes.payApply, { query: { payPurposeId: 3, vueReturnUrl: '/book/read/1/2' } })).toBe(
      'https://api.yueman.example/h5/pay/apply?payPurposeId=3&vueReturnUrl=%2Fbook%2Fread%2F1%2F2',
    );
  });
});

describe('data: the data of a call that must succeed', () => {
  it('resolves to the envelope data', async () => {
    answer = { result: true, code: Code.ok, msg: '', data: { hotWords: ['斗罗'] } };
    await expect(data(routes.initSearch)).resolves.toEqual({ hotWords: ['斗罗'] });
  });

  it('rejects with the envelope code and message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answer = { result: false, code: Code.notFound, msg: '书籍不存在', data: null };
    const failure = data(routes.bookDetail, { params: { bookId: 404 } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: Code.notFound, message: '书籍不存在' });
  });
});
