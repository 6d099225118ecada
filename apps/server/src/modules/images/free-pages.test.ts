import { describe, expect, it } from 'vitest';
import { cachedFreePages } from './free-pages.ts';

function database(free: Set<string>) {
  const lookups: string[] = [];
  const lookup = async (path: string) => {
    lookups.push(path);
    return free.has(path);
  };
  return { lookup, lookups };
}

describe('cachedFreePages', () => {
  it('asks the database once per path until the answer is older than ttlMs', async () => {
    let now = 1_000_000;
    const free = new Set(['pages/a.png']);
    const db = database(free);
    const isFree = cachedFreePages(db.lookup, { ttlMs: 30_000, now: () => now });
    expect(await isFree('pages/a.png')).toBe(true);
    expect(await isFree('pages/b.png')).toBe(false);
    now += 29_000;
    expect(await isFree('pages/a.png')).toBe(true);
    expect(db.lookups).toEqual(['pages/a.png', 'pages/b.png']);
    // The chapter becomes priced: within ttlMs the page is refused.
    free.delete('pages/a.png');
    now += 2000;
    expect(await isFree('pages/a.png')).toBe(false);
    expect(db.lookups).toEqual(['pages/a.png', 'pages/b.png', 'pages/a.png']);
  });

  it('knows a page free without waiting only while a fresh answer of the database says so', async () => {
    let now = 1_000_000;
    const db = database(new Set(['/pages/1/1/1.png']));
    const isFree = cachedFreePages(db.lookup, { ttlMs: 30_000, now: () => now });
    expect(isFree.knownFree('/pages/1/1/1.png')).toBe(false);
    await isFree('/pages/1/1/1.png');
    await isFree('/pages/2/1/1.png');
    expect(isFree.knownFree('/pages/1/1/1.png')).toBe(true);
    expect(isFree.knownFree('/pages/2/1/1.png')).toBe(false);
    now += 30_001;
    expect(isFree.knownFree('/pages/1/1/1.png')).toBe(false);
  });

  it('shares one lookup among concurrent first requests', async () => {
    const db = database(new Set(['pages/a.png']));
    const isFree = cachedFreePages(db.lookup);
    const answers = await Promise.all(Array.from({ length: 20 }, () => isFree('pages/a.png')));
    expect(answers).toEqual(Array(20).fill(true));
    expect(db.lookups).toEqual(['pages/a.png']);
  });

  it('stays within maxEntries, dropping the least recently used path', async () => {
    const db = database(new Set());
    const isFree = cachedFreePages(db.lookup, { maxEntries: 2 });
    for (const path of ['a', 'b', 'a', 'c', 'a', 'b']) await isFree(path);
    expect(db.lookups).toEqual(['a', 'b', 'c', 'b']);
  });

  it('does not remember a failed lookup', async () => {
    let fail = true;
    const isFree = cachedFreePages(async () => {
      if (fail) throw new Error('database down');
      return true;
    });
    await expect(isFree('pages/a.png')).rejects.toThrow('database down');
    fail = false;
    expect(await isFree('pages/a.png')).toBe(true);
  });
});
