export { decryptCover, encryptCover } from './cover-crypto.ts';
export { cachedFreePages } from './free-pages.ts';
export { createImageHost, IMMUTABLE, type ImageHost, type ImageHostOptions } from './image-host.ts';
export { IMAGE_WIDTHS, isCoverPath, parseImageUrl } from './image-url.ts';
export { createPageGrants, type PageGrants } from './page-grant.ts';
