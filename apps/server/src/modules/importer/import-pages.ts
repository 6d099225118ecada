import sharp, { type Sharp } from 'sharp';
import {
  DECODE_OPTIONS,
  decodeBudget,
  type ImageHeader,
  ImageRefused,
  inspectImage,
  MAX_PAGE_ASPECT,
} from '../../shared/image-limits.ts';

/** A page as stored: its bytes, the extension of its format, and its size. */
export interface StoredPage {
  bytes: Buffer;
  ext: 'jpg' | 'png' | 'webp';
  width: number;
  height: number;
}

/** A page taller than this many widths is cut (a long strip from a webtoon would otherwise load as one image). */
const TALL = 3;
/** …into parts no taller than this many widths. */
const PART = 2;
const KEPT: Record<string, StoredPage['ext']> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

/** A page that is not a readable image: the message names where it was. */
export class UnreadablePage extends Error {}

/**
 * Why the image library could not read a page, in the operator's words (its own message is English, and names
 * nothing an operator can act on): the format, a file cut short, or damaged content.
 */
export function unreadableReason(err: unknown): string {
  const text = String((err as Error)?.message ?? '').toLowerCase();
  if (/unsupported image format|not a known file format|unknown format|no decoder/.test(text))
    return '不是图片，或格式不支持（请用 JPEG、PNG 或 WebP）';
  if (/premature end|truncat|unexpected end|end of file|eof/.test(text))
    return '文件不完整（可能未传完或已损坏）';
  return '图片内容已损坏，无法解码';
}

const unreadable = (label: string, err: unknown) =>
  new UnreadablePage(`${label}: 不是可读的图片（${unreadableReason(err)}）`);

/**
 * Reads the page's header first: one over MAX_IMAGE_PIXELS, or longer than MAX_PAGE_ASPECT times its width (a 1×16000
 * strip would be 8,000 pages), is refused before a pixel is decoded. Then decodes it whole, within the process's
 * decode budget (a readable header is not enough: every pixel is read, so a truncated or corrupt file is refused
 * here, not in a reader's phone) and returns it as stored: as it came when its format is JPEG, PNG or WebP and it
 * needs no cut, else re-encoded (JPEG stays JPEG, anything else becomes PNG); a page taller than 3 × its width is
 * cut top to bottom into parts no taller than 2 × its width.
 */
export async function preparePage(bytes: Buffer, label: string): Promise<StoredPage[]> {
  let header: ImageHeader;
  try {
    header = await inspectImage(bytes, MAX_PAGE_ASPECT);
  } catch (err) {
    if (err instanceof ImageRefused) throw new UnreadablePage(`${label}: ${err.message}`);
    throw unreadable(label, err);
  }
  return decodeBudget.run(header.width * header.height, () => decodePage(bytes, label, header.format));
}

async function decodePage(bytes: Buffer, label: string, format: string): Promise<StoredPage[]> {
  let width: number;
  let height: number;
  try {
    const { info } = await sharp(bytes, DECODE_OPTIONS).raw().toBuffer({ resolveWithObject: true });
    width = info.width;
    height = info.height;
  } catch (err) {
    throw unreadable(label, err);
  }
  if (bytes.length === 0 || width === 0 || height === 0) throw new UnreadablePage(`${label}: 空图片`);
  const kept = KEPT[format];
  if (height <= TALL * width && kept) return [{ bytes, ext: kept, width, height }];
  const ext: StoredPage['ext'] = format === 'jpeg' ? 'jpg' : 'png';
  const encode = (img: Sharp) => (ext === 'jpg' ? img.jpeg({ quality: 92 }) : img.png());
  if (height <= TALL * width) {
    return [{ bytes: await encode(sharp(bytes, DECODE_OPTIONS)).toBuffer(), ext, width, height }];
  }
  const parts = Math.ceil(height / (PART * width));
  const partHeight = Math.ceil(height / parts);
  const out: StoredPage[] = [];
  for (let top = 0; top < height; top += partHeight) {
    const h = Math.min(partHeight, height - top);
    const part = await encode(
      sharp(bytes, DECODE_OPTIONS).extract({ left: 0, top, width, height: h }),
    ).toBuffer();
    out.push({ bytes: part, ext, width, height: h });
  }
  return out;
}
