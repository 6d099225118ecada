import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedBody, etagMatches, type StaticAnswer, StaticAnswers } from './static-answers.ts';

describe('StaticAnswers', () => {
  it('keeps an answer with a strong ETag until it expires, per method and URL, and forgets all on clear', () => {
    const answers = new StaticAnswers({ ttlMs: 5000 });
    expect(answers.lookup('GET', '/api/book/detail/4')).toBeUndefined();
    const kept = answers.keep('GET', '/api/book/detail/4', '{"a":1}');
    expect(kept.etag).toMatch(/^"[\w-]+"$/);
    expect(answers.lookup('GET', '/api/book/detail/4')).toBe(kept);
    expect(answers.lookup('HEAD', '/api/book/detail/4')).toBeUndefined();
    expect(etagMatches(`"x", ${kept.etag}`, kept.etag)).toBe(true);
    expect(etagMatches('"x"', kept.etag)).toBe(false);
    answers.clear();
    expect(answers.lookup('GET', '/api/book/detail/4')).toBeUndefined();
  });

  it('makes br and gzip copies once, of answers worth compressing', () => {
    const answers = new StaticAnswers({ ttlMs: 5000 });
    const text = JSON.stringify({ text: 'x'.repeat(4000) });
    const kept = answers.keep('GET', '/api/book/home/index', text);
    const br = encodedBody(kept, 'gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(text);
    expect(encodedBody(kept, 'br').body).toBe(br.body);
    const gz = encodedBody(kept, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(text);
    const small = answers.keep('GET', '/api/book/category', '{}');
    expect(encodedBody(small, 'br').encoding).toBeUndefined();
  });
});

describe('StaticAnswers bounded by bytes', () => {
  it('keeps at most maxBytes of answers and their compressed copies, the least recently used dropped first', () => {
    const answers = new StaticAnswers({ ttlMs: 60_000, maxBytes: 100_000 });
    const payload = (i: number) => JSON.stringify({ i, text: `${i} `.repeat(3000) });
    let kept = 0;
    for (let i = 0; i < 40; i++) {
      const url = `/api/book/detail/${i}`;
      answers.keep('GET', url, payload(i));
      kept += Buffer.byteLength(payload(i));
      // Compressed copies made on the way out count too.
      answers.encode('GET', url, answers.lookup('GET', url) as StaticAnswer, 'br');
      answers.encode('GET', url, answers.lookup('GET', url) as StaticAnswer, 'gzip');
      expect(answers.bytes()).toBeLessThanOrEqual(100_000);
    }
    expect(kept).toBeGreaterThan(2 * 100_000);
    expect(answers.bytes()).toBeGreaterThan(50_000);
    // The newest answers stay, the oldest went.
    expect(answers.lookup('GET', '/api/book/detail/39')).toBeDefined();
    expect(answers.lookup('GET', '/api/book/detail/0')).toBeUndefined();
  });

  it('counts a compressed copy made after the answer was kept', () => {
    const answers = new StaticAnswers({ ttlMs: 60_000, maxBytes: 1_000_000 });
    const kept = answers.keep('GET', '/api/book/detail/1', JSON.stringify({ text: 'ab'.repeat(20_000) }));
    const before = answers.bytes();
    answers.encode('GET', '/api/book/detail/1', kept, 'gzip');
    expect(answers.bytes()).toBe(before + (kept.gzip as Buffer).length);
  });
});
