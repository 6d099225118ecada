// Pure in-memory counting (no SQL): the window's end and the memory bound, with a controlled clock.
import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from './attempt-limiter.ts';

describe('attempt limiter', () => {
  it('opens again when the window ends, and answers the seconds left meanwhile', () => {
    let now = 0;
    const limiter = new AttemptLimiter(60_000, () => now);
    const keys = [{ key: 'a', max: 2 }];
    expect([limiter.take(keys), limiter.take(keys)]).toEqual([0, 0]);
    now = 15_000;
    expect(limiter.take(keys)).toBe(45);
    now = 60_000;
    expect(limiter.take(keys)).toBe(0);
  });

  it('counts on every key or on none', () => {
    const limiter = new AttemptLimiter(60_000, () => 0);
    expect(limiter.take([{ key: 'ip', max: 1 }])).toBe(0);
    expect(
      limiter.take([
        { key: 'ip', max: 1 },
        { key: 'user', max: 1 },
      ]),
    ).toBeGreaterThan(0);
    // 'user' was not counted by the refused attempt.
    expect(limiter.take([{ key: 'user', max: 1 }])).toBe(0);
  });

  it('gives back and clears', () => {
    const limiter = new AttemptLimiter(60_000, () => 0);
    const keys = [{ key: 'k', max: 1 }];
    limiter.take(keys);
    limiter.giveBack('k');
    expect(limiter.take(keys)).toBe(0);
    limiter.clear('k');
    expect(limiter.take(keys)).toBe(0);
  });

  it('keeps memory bounded, dropping the oldest windows first', () => {
    const limiter = new AttemptLimiter(60_000, () => 0, 100);
    for (let i = 0; i < 1000; i++) limiter.take([{ key: `k${i}`, max: 1 }]);
    expect(limiter.take([{ key: 'k999', max: 1 }])).toBeGreaterThan(0);
    expect(limiter.take([{ key: 'k0', max: 1 }])).toBe(0);
  });
});
