import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { cachedFreePages } from './free-pages.ts';
import { createImageHost } from './image-host.ts';
import type { ImageStorage } from './image-store.ts';
import type { ImagesPort } from './images.port.ts';
import { createPageGrants } from './page-grant.ts';

export type { DrawMissingImage, ImagesPort } from './images.port.ts';

/**
 * The image host: resized WebP on first request, kept in the store (the storage port: a directory or an S3
 * bucket); encrypted covers; grants on priced pages. Its URLs have no prefix of their own, so the web module's
 * catch-all route asks `serve` first.
 */
export async function registerImages(_app: FastifyInstance, ctx: ModuleContext): Promise<ImagesPort> {
  const { config } = ctx;
  const grants = createPageGrants(config.pageGrantKey);
  const isKnownImage = (path: string) => ctx.ports.catalog.isKnownImage(path);
  // Through the storage port, read at each call (it may register after this module).
  const storage: ImageStorage = {
    get: (key) => ctx.ports.storage.get(key),
    head: (key) => ctx.ports.storage.head(key),
    read: (key) => ctx.ports.storage.read(key),
    put: (key, body, type) => ctx.ports.storage.put(key, body, type),
  };
  const freePages = cachedFreePages((path) => ctx.ports.catalog.isFreePage(path));
  const host = createImageHost({
    storage,
    coverKey: config.coverKey,
    grants,
    isFreePage: freePages,
    knownFreePage: freePages.knownFree,
    // Demo pictures are drawn only with the demo library on, and only for images the database knows.
    draw: ctx.demoDrawer?.(isKnownImage),
    log: ctx.log,
    memoryBytes: config.imageMemoryCacheBytes,
    metrics: {
      // The metrics' 'disk' tier is the store's variants, on disk or in a bucket.
      cache: (tier, outcome) => ctx.ports.metrics.imageCache(tier === 'store' ? 'disk' : tier, outcome),
      resized: (seconds) => ctx.ports.metrics.imageResized(seconds),
    },
  });
  ctx.memory.add('images', host.memory.images);
  ctx.memory.add('image_urls', host.memory.image_urls);
  ctx.memory.add('free_pages', freePages.memory);
  return {
    grantPage: (path) => grants.grant(path),
    serve: host.serve,
    preview: host.preview,
    forgetFreePages: freePages.forget,
  };
}
