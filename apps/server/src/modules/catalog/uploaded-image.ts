import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  DECODE_OPTIONS,
  decodeBudget,
  ImageRefused,
  inspectImage,
  MAX_PICTURE_ASPECT,
} from '../../shared/image-limits.ts';
import { imageRefused, notAnImage } from './catalog.errors.ts';

/** Covers and ads: pictures, not books. */
export const IMAGE_UPLOAD_BYTES = 10 * 1024 * 1024;

const FORMATS: Record<string, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** A picture an operator uploaded (a cover, an ad), checked whole: its file extension, size and content hash. */
export interface UploadedImage {
  bytes: Buffer;
  ext: string;
  width: number;
  height: number;
  /** The first 16 hex digits of its SHA-256: the same picture keeps the same path. */
  hash: string;
}

/**
 * Reads the header first: a picture over MAX_IMAGE_PIXELS or of a shape no cover or ad has is 400 with the reason,
 * before a pixel is decoded. Then decodes every pixel (a readable header is not enough, as for imported pages),
 * within the process's decode budget: a truncated, empty or non-image upload, or another format than PNG, JPEG or
 * WebP, is 400 naming the form field.
 */
export async function readUploadedImage(bytes: Buffer, field: string): Promise<UploadedImage> {
  try {
    const header = await inspectImage(bytes, MAX_PICTURE_ASPECT);
    const ext = FORMATS[header.format];
    if (!ext) throw notAnImage(field);
    const { info } = await decodeBudget.run(header.width * header.height, () =>
      sharp(bytes, DECODE_OPTIONS).raw().toBuffer({ resolveWithObject: true }),
    );
    if (info.width === 0 || info.height === 0) throw notAnImage(field);
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    return { bytes, ext, width: info.width, height: info.height, hash };
  } catch (err) {
    if (err instanceof ImageRefused) throw imageRefused(err.message, field);
    if ((err as { httpStatus?: number }).httpStatus === 400) throw err;
    throw notAnImage(field);
  }
}
