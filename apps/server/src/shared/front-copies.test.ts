import { describe, expect, it } from 'vitest';
import type { FastAnswer, FastRequest, KeptCopy } from './fast-path.ts';
import { copyMatches, FrontCopies } from './front-copies.ts';

const get = (url: string, more: Partial<FastRequest> = {}): FastRequest => ({
  method: 'GET',
  url,
  ifNoneMatch: undefined,
  acceptEncoding: undefined,
  ...more,
});

function copyOf(body: string, until: number, weakMatch = false): KeptCopy {
  const etag = `"${body}"`;
  const ok: FastAnswer = { status: 200, headers: { etag }, body: Buffer.from(body) };
  return { ok, notModified: { status: 304, headers: { etag } }, etag, weakMatch, until };
}

describe('a front process’s copies of kept answers', () => {
  it('asks the owner once for concurrent first requests, then answers from the copy until it expires', async () => {
    let now = 1000;
    const asked: FastRequest[] = [];
    const copies = new FrontCopies({
      now: () => now,
      ask: async (req) => {
        asked.push(req);
        return copyOf(`v${asked.length}`, now + 5000);
      },
    });
    const [a, b] = await Promise.all([copies.answer(get('/x')), copies.answer(get('/x'))]);
    expect(asked).toHaveLength(1);
    expect(a?.body?.toString()).toBe('v1');
    expect(b).toBe(a);
    // From the copy now, without waiting.
    expect((copies.answer(get('/x')) as FastAnswer).body?.toString()).toBe('v1');
    now += 5000;
    expect((await copies.answer(get('/x')))?.body?.toString()).toBe('v2');
    expect(asked).toHaveLength(2);
  });

  it('keeps a copy per compressed form, and asks without the reader’s If-None-Match', async () => {
    const asked: FastRequest[] = [];
    const copies = new FrontCopies({
      ask: async (req) => {
        asked.push(req);
        return copyOf(req.acceptEncoding ?? 'none', Date.now() + 5000);
      },
    });
    await copies.answer(get('/x', { acceptEncoding: 'gzip, br', ifNoneMatch: '"zzz"' }));
    await copies.answer(get('/x', { acceptEncoding: 'gzip' }));
    await copies.answer(get('/x', { acceptEncoding: 'br' }));
    await copies.answer(get('/x'));
    expect(asked.map((r) => r.acceptEncoding)).toEqual(['gzip, br', 'gzip', undefined]);
    expect(asked.every((r) => r.ifNoneMatch === undefined)).toBe(true);
  });

  it('answers 304 to the copy’s ETag, by the strong or the weak comparison as the owner said', async () => {
    const strong = copyOf('s', Date.now() + 5000);
    const weak = copyOf('w', Date.now() + 5000, true);
    expect(copyMatches('"s"', strong)).toBe(true);
    expect(copyMatches('W/"s"', strong)).toBe(false);
    expect(copyMatches('W/"w"', weak)).toBe(true);
    expect(copyMatches('"a", *', strong)).toBe(true);
    expect(copyMatches(undefined, strong)).toBe(false);
    const copies = new FrontCopies({ ask: async () => strong });
    expect((await copies.answer(get('/x', { ifNoneMatch: '"s"' })))?.status).toBe(304);
    expect((await copies.answer(get('/x', { ifNoneMatch: '"t"' })))?.status).toBe(200);
  });

  it('has no answer (the connection goes to the owner) for what the owner keeps to itself, a failure or a HEAD', async () => {
    let calls = 0;
    const copies = new FrontCopies({
      ask: async (req) => {
        calls++;
        if (req.url === '/boom') throw new Error('channel closed');
        return req.url === '/stale' ? copyOf('old', Date.now() - 1) : undefined;
      },
    });
    expect(await copies.answer(get('/personal'))).toBeUndefined();
    expect(await copies.answer(get('/boom'))).toBeUndefined();
    expect(copies.answer(get('/x', { method: 'HEAD' }))).toBeUndefined();
    // A copy already expired is used for the request that asked, never kept.
    expect((await copies.answer(get('/stale')))?.status).toBe(200);
    await copies.answer(get('/stale'));
    expect(calls).toBe(4);
  });
});
