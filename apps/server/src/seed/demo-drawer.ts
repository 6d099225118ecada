import { demoLibrary, demoLookup } from './demo-library.ts';
import { drawDemoImage } from './drawings/index.ts';

/**
 * The image host's fallback for paths that have no file: the demo library's pictures are drawn on first
 * request (then resized and kept on disk by the host), so the first start does not draw thousands of images.
 */
export function demoDrawer() {
  let lookup: ReturnType<typeof demoLookup> | undefined;
  return (path: string) => {
    lookup ??= demoLookup(demoLibrary());
    return drawDemoImage(path, lookup);
  };
}
