import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { createLocalStorage } from './local-storage.ts';
import type { StoragePort } from './storage-port.ts';

export { createLocalStorage, type LocalStorageOptions } from './local-storage.ts';
export type { S3Storage } from './s3-storage.ts';
export {
  imageType,
  ORIGINALS,
  originalKey,
  type StoragePort,
  type StoredInfo,
  type StoredObject,
  VARIANTS,
  variantKey,
} from './storage-port.ts';

/**
 * Where page and cover images live (STORAGE): `local`, the directories IMAGE_ROOT (originals) and IMAGE_CACHE_DIR
 * (resized variants), or `s3`, a bucket every server shares. The image host reads and writes only through this port.
 */
export async function registerStorage(app: FastifyInstance, ctx: ModuleContext): Promise<StoragePort> {
  const { config } = ctx;
  if (config.s3) {
    // Loaded only for S3: the SDK adds a tenth of a second to every start.
    const { createS3Storage } = await import('./s3-storage.ts');
    const { close, ...s3 } = createS3Storage(config.s3);
    app.addHook('onClose', async () => close());
    return s3;
  }
  return createLocalStorage({
    originals: config.imageRoot,
    variants: config.imageCacheDir,
    // The demo drawer keeps its drawings as originals.
    writesOriginals: ctx.demoDrawer !== undefined,
  });
}
