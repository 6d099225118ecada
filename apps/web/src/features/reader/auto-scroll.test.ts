import { describe, expect, it } from 'vitest';
import { advance, atEnd, MAX_FRAME_MS, pxPerSecond } from './auto-scroll.ts';
import { clampSpeed, DEFAULT_SPEED, SPEED_STEPS } from './auto-scroll-speed.ts';

describe('auto-scroll speed', () => {
  it('has five steps, each faster than the one before, 60 px/s in the middle', () => {
    const speeds = Array.from({ length: SPEED_STEPS }, (_, i) => pxPerSecond(i + 1));
    expect(speeds).toEqual([27, 40, 60, 90, 135]);
    expect(pxPerSecond(DEFAULT_SPEED)).toBe(60);
  });

  it('takes any value as a whole step between 1 and 5', () => {
    expect(clampSpeed(0)).toBe(1);
    expect(clampSpeed(-3)).toBe(1);
    expect(clampSpeed(9)).toBe(5);
    expect(clampSpeed(2.4)).toBe(2);
    expect(clampSpeed(Number.NaN)).toBe(DEFAULT_SPEED);
    expect(clampSpeed('4')).toBe(DEFAULT_SPEED);
    expect(pxPerSecond(99)).toBe(pxPerSecond(5));
  });
});

describe('one frame of auto-scroll', () => {
  it('moves speed × time, in whole CSS pixels by default', () => {
    // 60 px/s for 50 ms is 3 px.
    expect(advance(0, 60, 50)).toEqual({ step: 3, carry: 0 });
    // 60 px/s for one 60 Hz frame (16.7 ms) is 1 px and a remainder.
    const f = advance(0, 60, 1000 / 60);
    expect(f.step).toBe(1);
    expect(f.carry).toBeCloseTo(0, 6);
  });

  it('carries the fraction to the next frame, so a slow speed loses nothing', () => {
    let carry = 0;
    let moved = 0;
    // 27 px/s over one second of 60 Hz frames.
    for (let i = 0; i < 60; i++) {
      const f = advance(carry, 27, 1000 / 60);
      moved += f.step;
      carry = f.carry;
      expect(Number.isInteger(f.step)).toBe(true);
    }
    expect(moved + carry).toBeCloseTo(27, 6);
    expect(moved).toBeGreaterThanOrEqual(26);
  });

  it('moves in device pixels when given one (1/3 CSS px on a 3x screen)', () => {
    const f = advance(0, 40, 1000 / 60, 1 / 3);
    // 40 px/s × 16.7 ms = 0.667 px: two device pixels.
    expect(f.step).toBeCloseTo(2 / 3, 6);
    expect(f.carry).toBeCloseTo(0, 6);
  });

  it('never jumps after a long pause (a hidden tab): a frame counts at most MAX_FRAME_MS', () => {
    expect(advance(0, 100, 5000)).toEqual(advance(0, 100, MAX_FRAME_MS));
    expect(advance(0, 100, -20)).toEqual({ step: 0, carry: 0 });
  });

  it('is faster at a faster step over the same time', () => {
    const over = (step: number) => {
      let carry = 0;
      let moved = 0;
      for (let i = 0; i < 120; i++) {
        const f = advance(carry, pxPerSecond(step), 1000 / 60);
        moved += f.step;
        carry = f.carry;
      }
      return moved;
    };
    expect(over(5)).toBeGreaterThan(over(3) * 2);
    expect(over(3)).toBeGreaterThan(over(1) * 2);
  });
});

describe('the chapter end', () => {
  it('is reached when the bottom of the document is on screen', () => {
    expect(atEnd(1000, 844, 1844)).toBe(true);
    expect(atEnd(999.5, 844, 1844)).toBe(true);
    expect(atEnd(990, 844, 1844)).toBe(false);
    // A document shorter than the screen is at its end at once.
    expect(atEnd(0, 844, 600)).toBe(true);
  });
});
