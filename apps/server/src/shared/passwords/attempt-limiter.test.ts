// Counting in rate-limiter-flexible's memory store (no SQL): the window's end and all-or-none counting, on a fake
// clock (the store's windows are timers and Date.now).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAttemptLimiter } from './attempt-limiter.ts';

describe('attempt limiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens again when the window ends, and answers the seconds left meanwhile', async () => {
    const limiter = createAttemptLimiter(60_000);
    const keys = [{ key: 'a', max: 2 }];
    expect([await limiter.take(keys), await limiter.take(keys)]).toEqual([0, 0]);
    vi.advanceTimersByTime(15_000);
    expect(await limiter.take(keys)).toBe(45);
    vi.advanceTimersByTime(45_000);
    expect(await limiter.take(keys)).toBe(0);
  });

  it('counts on every key or on none', async () => {
    const limiter = createAttemptLimiter(60_000);
    expect(await limiter.take([{ key: 'ip', max: 1 }])).toBe(0);
    expect(
      await limiter.take([
        { key: 'ip', max: 1 },
        { key: 'user', max: 1 },
      ]),
    ).toBeGreaterThan(0);
    // 'user' was not counted by the refused attempt, and 'ip' is still at its limit, no further.
    expect(await limiter.take([{ key: 'user', max: 1 }])).toBe(0);
    expect(await limiter.take([{ key: 'ip', max: 2 }])).toBe(0);
  });

  it('gives back and clears', async () => {
    const limiter = createAttemptLimiter(60_000);
    const keys = [{ key: 'k', max: 1 }];
    await limiter.take(keys);
    await limiter.giveBack('k');
    expect(await limiter.take(keys)).toBe(0);
    await limiter.clear('k');
    expect(await limiter.take(keys)).toBe(0);
    expect(await limiter.take(keys)).toBeGreaterThan(0);
  });

  it('lets exactly max of many parallel attempts through', async () => {
    const limiter = createAttemptLimiter(60_000);
    const waits = await Promise.all(Array.from({ length: 50 }, () => limiter.take([{ key: 'p', max: 10 }])));
    expect(waits.filter((w) => w === 0)).toHaveLength(10);
  });
});
