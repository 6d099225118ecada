import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { safeReturnPath } from './safe-return.ts';

beforeEach(() => vi.stubGlobal('location', new URL('https://yueman.example/h5/report')));
afterEach(() => vi.unstubAllGlobals());

describe('where the report page sends the reader back', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(safeReturnPath('/book/12')).toBe('/book/12');
    expect(safeReturnPath('/book/read/12/3?title=%E6%BC%AB&title2=x#top')).toBe(
      '/book/read/12/3?title=%E6%BC%AB&title2=x#top',
    );
    expect(safeReturnPath('/home/../user')).toBe('/user');
  });

  it('sends anything else home: no open redirect', () => {
    for (const hostile of [
      '//evil.example',
      '//evil.example/home',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'book/12',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(hostile), String(hostile)).toBe('/home');
    }
  });
});
