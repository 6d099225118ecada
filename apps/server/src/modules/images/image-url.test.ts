import { describe, expect, it } from 'vitest';
import { PATH_MESSAGE, parseImageUrl, WIDTH_MESSAGE } from './image-url.ts';

const root = '/srv/images';
const parse = (url: string) => parseImageUrl(url, root);

describe('parseImageUrl', () => {
  it('reads the path and each allowed width', () => {
    for (const width of [180, 200, 500, 1000]) {
      expect(parse(`/covers/demo/1-v.png_${width}_0.img`)).toEqual({ path: 'covers/demo/1-v.png', width });
    }
    expect(parse('/pages/demo/1/2/3-1.png_1000_0.img?v=2')).toEqual({
      path: 'pages/demo/1/2/3-1.png',
      width: 1000,
    });
  });

  it('is not an image URL without the _{width}_0.img ending', () => {
    for (const url of [
      '/',
      '/bookshelf',
      '/a.png',
      '/a.png_200_1.img',
      '/a.png_200_0.img/x',
      '/a.png_x_0.img',
      '/_200_0.img',
    ]) {
      expect(parse(url)).toBeNull();
    }
  });

  it('refuses other widths', () => {
    for (const w of ['0', '100', '201', '0200', '999999']) {
      expect(parse(`/a/b.png_${w}_0.img`)).toEqual({ error: WIDTH_MESSAGE });
    }
  });

  it('refuses traversal, odd characters and encodings of them', () => {
    const bad = [
      '/../etc/passwd.png',
      '/a/../../etc/passwd.png',
      '/%2e%2e/%2e%2e/etc/passwd.png',
      '/%2E%2E%2Fetc%2Fpasswd.png',
      '/covers/..%2f..%2fetc%2fpasswd.png',
      '/covers/%252e%252e/%252e%252e/etc/passwd.png',
      '/%2Fetc/passwd.png',
      '//etc/passwd.png',
      '/a//b.png',
      '/a/b.png/',
      '/a%5cb.png',
      '/a\\b.png',
      '/a%00.png',
      '/a/./b.png',
      '/.env.png',
      '/a/.hidden/b.png',
      '/a b.png',
      '/a%20b.png',
      '/%E5%9B%BE.png',
      '/%zz.png',
      '/etc/passwd',
      `/${'a'.repeat(600)}.png`,
    ];
    for (const p of bad) expect(parse(`${p}_200_0.img`), p).toEqual({ error: PATH_MESSAGE });
  });

  it('decodes percent-encoding once', () => {
    expect(parse('/covers%2Fdemo%2F1-v.png_200_0.img')).toEqual({ path: 'covers/demo/1-v.png', width: 200 });
  });
});
