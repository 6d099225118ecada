import { describe, expect, it } from 'vitest';
import { catalogPath, positiveId, purchasePath, readerPath, reportPath, shelfPath } from './paths.ts';

describe('in-app addresses', () => {
  it('carries the titles of the reader and the catalogue in their query', () => {
    expect(readerPath(12, 3)).toBe('/book/read/12/3');
    expect(readerPath(12, 3, '斗罗')).toBe('/book/read/12/3?title=%E6%96%97%E7%BD%97');
    expect(readerPath(12, 3, 'a&b', '第3话')).toBe('/book/read/12/3?title=a%26b&title2=%E7%AC%AC3%E8%AF%9D');
    expect(readerPath(12, 3, '', '')).toBe('/book/read/12/3?title=');
    expect(catalogPath(12, 'a b')).toBe('/book/12/catalog?title=a+b');
  });

  it('names the chapter to come back to after a recharge', () => {
    expect(purchasePath()).toBe('/purchase');
    expect(purchasePath({ bookId: 12, number: 3 })).toBe('/purchase?bookId=12&number=3');
  });

  it('opens the shelf on its history and the report page with its way back', () => {
    expect(shelfPath('history')).toBe('/shelf?active=history');
    expect(reportPath('/book/1?x=1', '')).toBe('/h5/report?vueReturnUrl=%2Fbook%2F1%3Fx%3D1');
    expect(reportPath('/home', 'mailto:a@b')).toBe(
      '/h5/report?vueReturnUrl=%2Fhome&serviceUrl=mailto%3Aa%40b',
    );
  });

  it('reads only positive whole numbers as ids', () => {
    expect(positiveId('12')).toBe(12);
    for (const raw of ['0', '-1', '1e3', '12.5', ' 12', '1234567890', '', null, undefined]) {
      expect(positiveId(raw), String(raw)).toBeNull();
    }
  });
});
