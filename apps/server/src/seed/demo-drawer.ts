import { demoLibrary, demoLookup } from './demo-library.ts';
import { drawDemoImage } from './drawings/index.ts';

/**
 * The image host's fallback for paths that have no file: the demo library's pictures are drawn on first
 * request (then resized and kept on disk by the host), so the first start does not draw thousands of images.
 * Only images the database knows are drawn (`isKnown`), so made-up chapter or page numbers draw and keep nothing.
 */
export function demoDrawer(isKnown: (path: string) => Promise<boolean>) {
  let lookup: ReturnType<typeof demoLookup> | undefined;
  return async (path: string) => {
    if (!(await isKnown(path))) return null;
    lookup ??= demoLookup(demoLibrary());
    return drawDemoImage(path, lookup);
  };
}
