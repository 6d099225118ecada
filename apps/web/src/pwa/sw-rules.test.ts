import { describe, expect, it } from 'vitest';
import {
  assetsNamedBy,
  buildIdOf,
  chapterKey,
  chapterKeyUser,
  isAppNavigation,
  isNeverCached,
  isPageImage,
  isReadableChapter,
  isReadChapter,
  isSmallImage,
  isStaticCall,
  pageKey,
  precachedPaths,
  shellKey,
  shellMatchesPrecache,
} from './sw-rules.ts';

const O = 'https://m.example.com';
const u = (path: string) => new URL(path, O);

describe('page images', () => {
  const granted = `${O}/g/1700006400/AbCdEfGhIjKlMnOpQrStUv/pages/demo/5/2/3.png_1000_0.img`;

  it('are keyed without their grant or a query, so a later grant (or an expired one offline) finds the page', () => {
    expect(pageKey(granted)).toBe(`${O}/pages/demo/5/2/3.png_1000_0.img`);
    expect(pageKey(`${O}/g/1700028000/ZZZZZZZZZZZZZZZZZZZZZZ/pages/demo/5/2/3.png_1000_0.img?x=1`)).toBe(
      pageKey(granted),
    );
    // A free page has no grant: its own address.
    expect(pageKey(`${O}/pages/demo/1/1/1.png_500_0.img`)).toBe(`${O}/pages/demo/1/1/1.png_500_0.img`);
    // Each width is its own picture.
    expect(pageKey(granted.replace('_1000_', '_500_'))).not.toBe(pageKey(granted));
  });

  it('are told from covers, thumbnails, ads and anything else', () => {
    expect(isPageImage(u(new URL(granted).pathname))).toBe(true);
    expect(isPageImage(u('/pages/demo/1/1/1.png_500_0.img'))).toBe(true);
    expect(isPageImage(u('/covers/demo/1-v.png_200_0.img'))).toBe(false);
    expect(isPageImage(u('/pages/demo/1/1/1.png_300_0.img'))).toBe(false); // not a width the host renders
    expect(isPageImage(u('/pages/demo/1/1/1.png'))).toBe(false);
    for (const small of [
      '/covers/demo/1-v.png_200_0.img',
      '/chapters/demo/1/1.png_180_0.img',
      '/ads/a.png_500_0.img',
    ])
      expect(isSmallImage(u(small)), small).toBe(true);
    expect(isSmallImage(u('/pages/demo/1/1/1.png_500_0.img'))).toBe(false);
  });
});

describe('calls', () => {
  it('keeps static GET calls from the contract, and no personal or paying one', () => {
    for (const path of [
      '/api/book/home/index',
      '/api/book/detail/12',
      '/api/book/showcase/detail/hot/2',
      '/api/book/new/1',
      '/api/book/query/all/0/1',
      '/api/common/info/v2/-2',
    ])
      expect(isStaticCall(u(path), 'GET'), path).toBe(true);
    expect(isStaticCall(u('/api/book/query/all/0/1'), 'POST')).toBe(false); // the Cache API keeps no POST
    for (const path of [
      '/api/user/info',
      '/api/user/recharge',
      '/api/book/chapter/list',
      '/api/book/read_chapter',
      '/api/pay/last_paid_order',
      '/api/admin/books',
      '/api/book/detail/12/x',
    ])
      expect(isStaticCall(u(path), 'GET'), path).toBe(false);
  });

  it('keys a chapter answer by book, chapter and account, and keeps none without an account', () => {
    const href = `${O}/api/book/read_chapter?number=2&bookId=5&_=1`;
    expect(isReadChapter(u('/api/book/read_chapter?bookId=5&number=2'), 'GET')).toBe(true);
    expect(isReadChapter(u('/api/book/read_chapter'), 'POST')).toBe(false);
    const key = chapterKey(href, '42');
    expect(key).toBe(`${O}/api/book/read_chapter?bookId=5&number=2&user=42`);
    expect(chapterKeyUser(key ?? '')).toBe('42');
    expect(chapterKey(href, '43')).not.toBe(key);
    expect(chapterKey(href, '')).toBeNull();
    expect(chapterKey(href, null)).toBeNull();
    expect(chapterKey(href, '42&user=1')).toBeNull();
  });

  it('keeps a chapter answer only when it gave pages', () => {
    const info = { bookId: 5, number: 2, bookPics: ['g/1/x/pages/a.png'] };
    expect(isReadableChapter({ result: true, code: 200, msg: 'success', data: info })).toBe(true);
    // 999 (buy first) carries the chapter without pages; 101, 400 carry none.
    expect(isReadableChapter({ result: false, code: 999, data: { ...info, bookPics: [] } })).toBe(false);
    expect(isReadableChapter({ result: false, code: 999, data: info })).toBe(false);
    expect(isReadableChapter({ result: false, code: 101, data: null })).toBe(false);
    expect(isReadableChapter({ result: true, code: 200, data: { ...info, bookPics: [] } })).toBe(false);
    expect(isReadableChapter(null)).toBe(false);
    expect(isReadableChapter('x')).toBe(false);
  });

  it('refuses a kept rental once it has ended, and keeps one still running or without an end', () => {
    const now = Date.UTC(2026, 0, 1);
    const rented = (endsAt: number | null) => ({
      result: true,
      code: 200,
      data: { bookPics: ['g/1/x/pages/a.png'], unlock: { source: 'wait_free', endsAt } },
    });
    expect(isReadableChapter(rented(now + 1), now)).toBe(true);
    expect(isReadableChapter(rented(null), now)).toBe(true);
    expect(isReadableChapter(rented(now), now)).toBe(false);
    expect(isReadableChapter(rented(now - 60_000), now)).toBe(false);
  });
});

describe('never kept', () => {
  it('leaves the console, payments, the cashier and the server’s own addresses alone', () => {
    for (const path of [
      '/admin/',
      '/admin',
      '/admin/books/3',
      '/api/admin/orders',
      '/h5/pay/apply?x=1',
      '/h5/pay/wechat/jsapi',
      '/sandbox-pay/cashier/T1',
      '/api/pay/pay',
      '/api/pay/last_paid_order',
      '/healthz',
      '/metrics',
      '/sw.js',
      '/manifest.webmanifest',
    ]) {
      expect(isNeverCached(u(path)), path).toBe(true);
      expect(isAppNavigation(u(path), O), path).toBe(false);
    }
    expect(isNeverCached(u('/administrator'))).toBe(false);
  });

  it('answers the web app’s own navigations, the report page under /h5/ included', () => {
    for (const path of ['/', '/home', '/book/read/5/2?title=x', '/shelf?active=history', '/h5/report?x=1'])
      expect(isAppNavigation(u(path), O), path).toBe(true);
    for (const path of ['/api/book/detail/1', '/assets/index-x.js', '/pages/a.png_500_0.img'])
      expect(isAppNavigation(u(path), O), path).toBe(false);
    expect(isAppNavigation(new URL('https://other.example.com/home'), O)).toBe(false);
  });
});

describe('the shell', () => {
  const html = `<!doctype html><head><script>const chunks = {"home":["/assets/home-page-a1.js","/assets/home-page-b2.css"]};</script>
    <script type="module" crossorigin src="/assets/index-e1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-s1.css"></head>`;
  const manifest = [
    { url: 'assets/index-e1.js', revision: null },
    { url: 'assets/index-s1.css', revision: null },
    { url: 'assets/home-page-a1.js', revision: null },
    'assets/home-page-b2.css',
  ];

  it('names its built files', () => {
    expect(assetsNamedBy(html).sort()).toEqual(
      [
        '/assets/home-page-a1.js',
        '/assets/home-page-b2.css',
        '/assets/index-e1.js',
        '/assets/index-s1.css',
      ].sort(),
    );
  });

  it('is kept only with the build its files belong to', () => {
    expect(shellMatchesPrecache(html, precachedPaths(manifest))).toBe(true);
    // Another deploy's shell names an entry script this precache does not hold.
    expect(shellMatchesPrecache(html.replace('index-e1', 'index-e2'), precachedPaths(manifest))).toBe(false);
    // Something that is not the app (an error page) names none.
    expect(shellMatchesPrecache('<p>502 Bad Gateway</p>', precachedPaths(manifest))).toBe(false);
  });

  it('is kept under its build’s own key, which the build’s files decide', () => {
    const id = buildIdOf(manifest);
    expect(buildIdOf([...manifest].reverse())).toBe(id);
    expect(buildIdOf([...manifest, { url: 'assets/new-chunk.js', revision: null }])).not.toBe(id);
    expect(buildIdOf([{ url: 'sw-extra.txt', revision: 'a' }])).not.toBe(
      buildIdOf([{ url: 'sw-extra.txt', revision: 'b' }]),
    );
    expect(shellKey(id)).toBe(`/index.html?build=${id}`);
  });
});
