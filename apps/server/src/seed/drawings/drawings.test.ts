import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEMO_SIZES, demoPageHeight, demoPaths, PAGE_WIDTH } from '../demo-geometry.ts';
import { type DemoLookup, demoSvg, drawDemoImage } from './index.ts';
import { escapeXml } from './svg.ts';

const titles = new Map([
  [1, '星河旅人'],
  [2, '<猫&"狗">'],
  [3, '长安十二时辰外传之夜行记'],
  [4, '分镜四格'],
]);
const lookup: DemoLookup = {
  bookTitle: (book) => titles.get(book),
  picSplitCount: (book) => (book === 3 ? 2 : book === 4 ? 4 : 1),
};

async function size(p: string) {
  const png = await drawDemoImage(p, lookup);
  if (!png) throw new Error(`no drawing for ${p}`);
  const meta = await sharp(png).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

describe('demo drawings', () => {
  it('draws covers, chapter thumbs and ads at their recorded sizes', async () => {
    expect(await size(demoPaths.verticalCover(1))).toEqual({ ...DEMO_SIZES.verticalCover, format: 'png' });
    expect(await size(demoPaths.horizontalCover(2))).toEqual({
      ...DEMO_SIZES.horizontalCover,
      format: 'png',
    });
    expect(await size(demoPaths.chapterThumb(1, 12))).toEqual({ ...DEMO_SIZES.chapterThumb, format: 'png' });
    expect(await size(demoPaths.ad(3))).toEqual({ ...DEMO_SIZES.ad, format: 'png' });
  });

  it('draws pages at the width and height the seed records', async () => {
    expect(await size(demoPaths.page(1, 2, 3))).toMatchObject({
      width: PAGE_WIDTH,
      height: demoPageHeight(1, 2, 3),
    });
    expect(await size(demoPaths.page(1, 1, 1))).toMatchObject({
      width: PAGE_WIDTH,
      height: demoPageHeight(1, 1, 1),
    });
  });

  it('cuts slices 800/n wide, left to right, that put back together make the page', async () => {
    const height = demoPageHeight(3, 2, 5);
    for (const slice of [1, 2])
      expect(await size(demoPaths.page(3, 2, 5, slice))).toMatchObject({ width: 400, height });
    for (const slice of [1, 2, 3, 4]) expect((await size(demoPaths.page(4, 1, 2, slice))).width).toBe(200);
    const whole = await sharp((await drawDemoImage(demoPaths.page(3, 2, 5), lookup)) ?? Buffer.alloc(0))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const right = await sharp((await drawDemoImage(demoPaths.page(3, 2, 5, 2), lookup)) ?? Buffer.alloc(0))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const px = (img: typeof whole, x: number, y: number) =>
      img.data.readUInt32BE((y * img.info.width + x) * img.info.channels);
    for (const [x, y] of [
      [10, 100],
      [200, 700],
      [390, height - 40],
    ] as const) {
      expect(px(right, x, y)).toBe(px(whole, x + 400, y));
    }
  });

  it('draws the shared placeholders of the scale seed without a lookup entry', async () => {
    const none: DemoLookup = { bookTitle: () => undefined, picSplitCount: () => 1 };
    for (const k of [1, 8]) {
      expect(await drawDemoImage(`covers/shared/${k}-v.png`, none)).not.toBeNull();
      expect(await drawDemoImage(`covers/shared/${k}-h.png`, none)).not.toBeNull();
      expect(await drawDemoImage(`chapters/shared/${k}.png`, none)).not.toBeNull();
    }
    const page = await drawDemoImage('pages/shared/4.png', none);
    expect(await sharp(page ?? Buffer.alloc(0)).metadata()).toMatchObject({ width: 800, height: 1600 });
  });

  it('returns null for paths that are not demo pictures', async () => {
    for (const p of [
      'covers/demo/99-v.png',
      'covers/demo/1-x.png',
      'covers/demo/01-v.png',
      'pages/demo/1/1/1-2.png',
      'pages/demo/3/1/1-3.png',
      'pages/demo/3/1/1-0.png',
      'pages/demo/1/1.png',
      'chapters/demo/99/1.png',
      'ads/demo/0.png',
      'covers/shared/9-v.png',
      'chapters/shared/1-v.png',
      'pages/shared/0.png',
      'uploads/1.png',
      'covers/demo/1-v.png.png',
    ]) {
      expect(await drawDemoImage(p, lookup), p).toBeNull();
    }
  });

  it('escapes titles', () => {
    expect(escapeXml(`<a & "b">'`)).toBe('&#60;a &#38; &#34;b&#34;&#62;&#39;');
    const svg = demoSvg(demoPaths.verticalCover(2), lookup) ?? '';
    expect(svg).toContain('&#60;猫&#38;&#34;狗&#34;&#62;');
    expect(svg).not.toContain('<猫');
  });
});
