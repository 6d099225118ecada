import { describe, expect, it } from 'vitest';
import { StaticAnswers } from './static-answers.ts';

describe('StaticAnswers', () => {
  it('keeps an answer for its TTL, and forgets every one on clear() (the server that changed the catalogue)', () => {
    const answers = new StaticAnswers({ ttlMs: 60_000 });
    answers.keep('GET', '/api/book/detail/4', '{"a":1}');
    answers.keep('GET', '/api/book/home/index', '{"b":2}');
    expect(answers.lookup('GET', '/api/book/detail/4')?.body.toString()).toBe('{"a":1}');
    answers.clear();
    expect(answers.lookup('GET', '/api/book/detail/4')).toBeUndefined();
    expect(answers.lookup('GET', '/api/book/home/index')).toBeUndefined();
  });
});
