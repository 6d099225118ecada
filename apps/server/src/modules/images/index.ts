export { decryptCover, encryptCover } from './cover-crypto.ts';
export { createImageHost, IMMUTABLE, type ImageHost, type ImageHostOptions } from './image-host.ts';
export { IMAGE_WIDTHS, isCoverPath, parseImageUrl } from './image-url.ts';
