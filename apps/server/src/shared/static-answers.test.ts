import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedBody, etagMatches, StaticAnswers } from './static-answers.ts';

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
