import { describe, expect, it } from 'vitest';
import { StaticAnswers } from './static-answers.ts';

const get = (url: string, acceptEncoding?: string, ifNoneMatch?: string) => ({
  method: 'GET',
  url,
  acceptEncoding,
  ifNoneMatch,
});

describe('StaticAnswers for the front and the front processes', () => {
  it('knows which URLs a static route answers, by its pattern, with or without a query or a trailing slash', () => {
    const answers = new StaticAnswers({ ttlMs: 5000 });
    answers.addRoute('/api/book/new/:page');
    answers.addRoute('/api/book/home/index');
    expect(answers.isStaticUrl('/api/book/new/3')).toBe(true);
    expect(answers.isStaticUrl('/api/book/home/index?x=1')).toBe(true);
    expect(answers.isStaticUrl('/api/book/home/index/')).toBe(true);
    expect(answers.isStaticUrl('/api/user/info')).toBe(false);
    expect(answers.isStaticUrl('/api/book/new/3/4')).toBe(false);
  });

  it('copies a kept answer with its 304, compressed as asked, good until it expires here', () => {
    const answers = new StaticAnswers({ ttlMs: 5000, headers: { 'x-frame-options': 'DENY' } });
    expect(answers.copyFor(get('/api/book/detail/4'))).toBeUndefined();
    const kept = answers.keep('GET', '/api/book/detail/4', JSON.stringify({ text: 'x'.repeat(4000) }));
    const copy = answers.copyFor(get('/api/book/detail/4', 'gzip, br', '"whatever"'));
    expect(copy?.until).toBe(kept.expires);
    expect(copy?.etag).toBe(kept.etag);
    expect(copy?.weakMatch).toBe(false);
    // The 200 whatever If-None-Match the asker had; the 304 beside it.
    expect(copy?.ok.status).toBe(200);
    expect(copy?.ok.headers['content-encoding']).toBe('br');
    expect(copy?.ok.body?.equals(kept.br as Buffer)).toBe(true);
    expect(copy?.ok.headers['x-frame-options']).toBe('DENY');
    expect(copy?.notModified).toMatchObject({ status: 304, headers: { etag: kept.etag } });
    expect(copy?.notModified.body).toBeUndefined();
    // The same objects the owner's own front sends.
    expect(copy?.ok).toBe(answers.fast(get('/api/book/detail/4', 'br')));
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
      answers.fast(get(url, 'br'));
      answers.fast(get(url, 'gzip'));
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
    answers.fast(get('/api/book/detail/1', 'gzip'));
    expect(answers.bytes()).toBe(before + (kept.gzip as Buffer).length);
  });
});
