import sharp, { type SharpOptions } from 'sharp';

/**
 * What an uploaded or imported picture may be before a single pixel is decoded: a decoded image costs width × height
 * × channels bytes whatever its file weighs (a 1 MB PNG of 16383×16383 is ~1 GB decoded), so the limits are read
 * from its header. No real comic page or cover comes near them.
 */
/** 32 million pixels: a 4000×8000 cover, an 800×40000 webtoon strip (~128 MB decoded at 4 channels). */
export const MAX_IMAGE_PIXELS = 32_000_000;
/** A page's long side at most this many times its short side (a webtoon strip of 800×40000 is 50). */
export const MAX_PAGE_ASPECT = 100;
/** A cover's or an ad's (a banner of 750×150 is 5). */
export const MAX_PICTURE_ASPECT = 10;
/** Pixels decoded at once by every upload and import of this process together: two of the largest. */
export const DECODE_BUDGET_PIXELS = 2 * MAX_IMAGE_PIXELS;

/** sharp's options for a picture that passed `inspectImage`: it still refuses, in libvips, anything larger. */
export const DECODE_OPTIONS: SharpOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' };

/** A picture refused for its size or shape: the message says why, in the operator's words. */
export class ImageRefused extends Error {}

export interface ImageHeader {
  format: string;
  width: number;
  height: number;
}

const wan = (pixels: number) => `${Math.round(pixels / 10_000)} 万`;

/**
 * The picture's format and size from its header only; ImageRefused when it is larger than MAX_IMAGE_PIXELS or longer
 * than `maxAspect` times its width (or wider than that times its height). Throws sharp's error for what is no image.
 */
export async function inspectImage(bytes: Buffer, maxAspect: number): Promise<ImageHeader> {
  // metadata() reads the header: no pixel is decoded, whatever it claims.
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const pixels = width * height;
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new ImageRefused(
      `图片过大：${width}×${height}（${wan(pixels)}像素），最多 ${wan(MAX_IMAGE_PIXELS)}像素`,
    );
  }
  if (width > 0 && height > 0 && Math.max(width, height) > maxAspect * Math.min(width, height)) {
    throw new ImageRefused(`图片比例异常：${width}×${height}，长边不能超过短边的 ${maxAspect} 倍`);
  }
  return { format: meta.format ?? '', width, height };
}

/**
 * A budget of pixels shared by every decode in this process (uploads at once, an import beside them): a decode
 * waits, first come first served, until its pixels fit, so several large pictures at once cost at most the budget,
 * not their sum. A picture larger than the budget (none passes inspectImage) waits for the whole of it.
 */
export function createDecodeBudget(pixels: number) {
  let free = pixels;
  const waiting: { need: number; go: () => void }[] = [];
  const wake = () => {
    while (waiting.length > 0 && (waiting[0] as { need: number }).need <= free) {
      const next = waiting.shift() as { need: number; go: () => void };
      free -= next.need;
      next.go();
    }
  };
  return {
    /** Runs `work` once `weight` pixels (at least 1) are free; gives them back when it ends, however it ends. */
    async run<T>(weight: number, work: () => Promise<T>): Promise<T> {
      const need = Math.min(Math.max(1, Math.ceil(weight)), pixels);
      if (waiting.length === 0 && need <= free) free -= need;
      else await new Promise<void>((go) => waiting.push({ need, go }));
      try {
        return await work();
      } finally {
        free += need;
        wake();
      }
    },
    /** Pixels not taken now (for tests and metrics). */
    get free() {
      return free;
    },
  };
}

/** The process's one budget: console uploads, imports and the image host's resizes take from it. */
export const decodeBudget = createDecodeBudget(DECODE_BUDGET_PIXELS);
