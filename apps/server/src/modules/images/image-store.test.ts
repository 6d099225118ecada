import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bombPng } from '../../../test/image-bombs.ts';
import { createLocalStorage, originalKey } from '../storage/index.ts';
import { createImageStore } from './image-store.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'image-store-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('image store', () => {
  it('runs at most `concurrency` sharp jobs (drawings and resizes) at once', async () => {
    let active = 0;
    let most = 0;
    const store = createImageStore({
      storage: createLocalStorage({ originals: path.join(dir, 'root'), variants: path.join(dir, 'cache') }),
      concurrency: 2,
      async draw() {
        most = Math.max(most, ++active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        active--;
        return sharp({ create: { width: 40, height: 60, channels: 3, background: '#36c' } })
          .png()
          .toBuffer();
      },
    });
    const paths = Array.from({ length: 6 }, (_, i) => `drawn/${i}.png`);
    const images = await Promise.all(paths.map((p) => store.make(p, 20)));
    expect(most).toBe(2);
    expect(store.stats.resizes).toBe(6);
    const widths = await Promise.all(
      images.map(async (made) => made && (await sharp(made.bytes).metadata()).width),
    );
    expect(widths).toEqual(Array(6).fill(20));
  });
});

describe('a source over the pixel limit', () => {
  it('is refused from its header, not decoded: the reader gets the missing-image answer', async () => {
    const storage = createLocalStorage({
      originals: path.join(dir, 'bomb'),
      variants: path.join(dir, 'bomb-cache'),
    });
    // As a picture stored before uploads were checked would be: 33 KB, 268 million pixels.
    await storage.put(originalKey('covers/bomb.png'), bombPng(16383, 16383), 'image/png');
    const warnings: string[] = [];
    const store = createImageStore({ storage, log: { warn: (_obj, msg) => warnings.push(msg) } });
    expect(await store.make('covers/bomb.png', 200)).toBeNull();
    expect(warnings).toEqual(['could not resize an image']);
  });
});
