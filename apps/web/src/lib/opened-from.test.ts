import { afterEach, describe, expect, it, vi } from 'vitest';
import { openedFromConsole } from './opened-from.ts';

/** The tab's sessionStorage, as a browser keeps it. */
function tabStorage() {
  const kept = new Map<string, string>();
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => kept.set(k, v),
  });
}

describe('openedFromConsole', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the console’s mark for the tab once its first address had it', () => {
    tabStorage();
    expect(openedFromConsole('?page=3&from=console')).toBe(true);
    // The app's own links drop the mark; the tab is still the console's.
    expect(openedFromConsole('')).toBe(true);
    expect(openedFromConsole('?tgId=5')).toBe(true);
  });

  it('is false for a reader’s tab and for another value', () => {
    tabStorage();
    expect(openedFromConsole('')).toBe(false);
    expect(openedFromConsole('?from=consoles')).toBe(false);
    expect(openedFromConsole('#from=console')).toBe(false);
  });

  it('reads the address alone where storage is refused', () => {
    vi.stubGlobal('sessionStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    });
    expect(openedFromConsole('?from=console')).toBe(true);
    expect(openedFromConsole('')).toBe(false);
  });
});
