// The decode budget: pictures decoded at once never take more pixels than it holds, and every one gets its turn.
import { describe, expect, it } from 'vitest';
import { bombPng } from '../../test/image-bombs.ts';
import { createDecodeBudget, ImageRefused, inspectImage, MAX_IMAGE_PIXELS } from './image-limits.ts';

describe('the decode budget', () => {
  it('runs decodes whose pixels fit together at once, holds the rest until pixels come back, in order', async () => {
    const budget = createDecodeBudget(100);
    let inUse = 0;
    let most = 0;
    const order: number[] = [];
    // One larger than the whole budget waits for all of it (and takes it all).
    const decode = (n: number, asked: number, pixels = Math.min(asked, 100)) =>
      budget.run(asked, async () => {
        inUse += pixels;
        most = Math.max(most, inUse);
        await new Promise((r) => setTimeout(r, 20));
        inUse -= pixels;
        order.push(n);
        if (n === 3) throw new Error('a broken picture still gives its pixels back');
      });
    const runs = [decode(1, 60), decode(2, 60), decode(3, 30), decode(4, 100), decode(5, 500)];
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(most).toBeLessThanOrEqual(100);
    expect(order.slice(0, 3).sort()).toEqual([1, 2, 3]);
    expect(budget.free).toBe(100);
  });

  it('reads a picture’s size from its header and refuses one over the limit without decoding it', async () => {
    const started = performance.now();
    await expect(inspectImage(bombPng(16383, 16383), 100)).rejects.toBeInstanceOf(ImageRefused);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await inspectImage(bombPng(100, 9_000), 100)).toEqual({ format: 'png', width: 100, height: 9000 });
    await expect(inspectImage(bombPng(100, 10_001), 100)).rejects.toThrow('长边不能超过短边的 100 倍');
    expect(MAX_IMAGE_PIXELS).toBeLessThan(16383 * 16383);
  });
});
