import { describe, expect, it } from 'vitest';
import { type Answer, createAnswerCache } from './memory-cache.ts';

const answer = (bytes: number): Answer => ({
  headers: { etag: '"e"' },
  etag: '"e"',
  body: Buffer.alloc(bytes),
  storeKey: 'variants/500/x.png.webp',
});

describe('answer cache', () => {
  it('drops the least recently used answers once past its byte budget', () => {
    // Room for three answers of 100 bytes and their overhead of 256 each, not four.
    const cache = createAnswerCache({ totalBytes: 3 * 356, itemBytes: 1000 });
    for (const key of ['a', 'b', 'c']) cache.set(key, answer(100), true);
    expect(cache.get('a')).toBeDefined();
    cache.set('d', answer(100), true);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key)?.body?.length)).toEqual([100, 100, 100]);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps a large answer without its body, unless it cannot be streamed from the store', () => {
    const cache = createAnswerCache({ totalBytes: 10_000, itemBytes: 1000 });
    cache.set('page', answer(1001), true);
    expect(cache.get('page')).toEqual({
      headers: { etag: '"e"' },
      etag: '"e"',
      storeKey: 'variants/500/x.png.webp',
    });
    cache.set('small', answer(1000), true);
    expect(cache.get('small')?.body).toHaveLength(1000);
    cache.set('cover', answer(5000), false);
    expect(cache.get('cover')?.body).toHaveLength(5000);
  });

  it('does not keep an answer larger than the whole budget', () => {
    const cache = createAnswerCache({ totalBytes: 1000, itemBytes: 10_000 });
    cache.set('kept', answer(100), true);
    cache.set('huge', answer(2000), false);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('kept')).toBeDefined();
  });
});
