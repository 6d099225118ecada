import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { cachedFreePages } from './free-pages.ts';
import { createImageHost } from './image-host.ts';
import type { ImageStorage } from './image-store.ts';
import { createPageGrants } from './page-grant.ts';

/** Makes a source picture for an image path that has no file (the demo drawer), or null when it has none. */
export type DrawMissingImage = (path: string) => Promise<Buffer | null>;

/** What other modules may ask of the image host. */
export interface ImagesPort {
  /** A priced chapter's page path with an expiring grant in front (docs/api.md section 5). */
  grantPage(path: string): string;
  /** Answers an image URL (`{path}_{width}_0.img`); false, with nothing sent, when the URL is not one. */
  serve(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** An unencrypted WebP of an image for the console's previews (image-host.ts), or null. */
  preview(imagePath: string, width: number): Promise<Buffer | null>;
  /** Forgets which pages are free (a price changed): the next request without a grant asks the database. */
  forgetFreePages(): void;
}

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
    metrics: {
      // The metrics' 'disk' tier is the store's variants, on disk or in a bucket.
      cache: (tier, outcome) => ctx.ports.metrics.imageCache(tier === 'store' ? 'disk' : tier, outcome),
      resized: (seconds) => ctx.ports.metrics.imageResized(seconds),
    },
  });
  return {
    grantPage: (path) => grants.grant(path),
    serve: host.serve,
    preview: host.preview,
    forgetFreePages: freePages.forget,
  };
}
