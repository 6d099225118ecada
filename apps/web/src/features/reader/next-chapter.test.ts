import { describe, expect, it } from 'vitest';
import { AHEAD_PAGES, pagesAhead } from './next-chapter.ts';

describe('pages of the next chapter fetched ahead', () => {
  it('are the first screens on a good connection, one where data costs or is slow, none offline', () => {
    expect(pagesAhead(undefined)).toBe(AHEAD_PAGES);
    expect(pagesAhead({ effectiveType: '4g', type: 'wifi' })).toBe(AHEAD_PAGES);
    expect(pagesAhead({ saveData: true, effectiveType: '4g' })).toBe(1);
    expect(pagesAhead({ effectiveType: 'slow-2g' })).toBe(1);
    expect(pagesAhead({ effectiveType: '2g' })).toBe(1);
    expect(pagesAhead({ effectiveType: '3g' })).toBe(1);
    expect(pagesAhead({ type: 'cellular', effectiveType: '4g' })).toBe(1);
    expect(pagesAhead({ effectiveType: '4g' }, false)).toBe(0);
  });
});
