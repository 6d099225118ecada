import { mkdir } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { createLocalStorage } from './local-storage.ts';
import { originalKey, type StorageModulePort } from './storage.port.ts';

export { createLocalStorage, type LocalStorageOptions } from './local-storage.ts';
export type { S3Storage } from './s3-storage.ts';
export {
  imageType,
  ORIGINALS,
  originalKey,
  type StorageModulePort,
  type StoragePort,
  type StoredInfo,
  type StoredObject,
  VARIANTS,
  variantKey,
} from './storage.port.ts';

/**
 * Where page and cover images live (STORAGE): `local`, the directories IMAGE_ROOT (originals) and IMAGE_CACHE_DIR
 * (resized variants), or `s3`, a bucket every server shares. The image host reads and writes only through this port.
 */
export async function registerStorage(app: FastifyInstance, ctx: ModuleContext): Promise<StorageModulePort> {
  const { config } = ctx;
  if (config.s3) {
    // Loaded only for S3: the SDK adds a tenth of a second to every start.
    const { createS3Storage } = await import('./s3-storage.ts');
    const { close, ...s3 } = createS3Storage(config.s3);
    app.addHook('onClose', async () => close());
    return { ...s3, putOriginal: (imagePath, bytes) => s3.put(originalKey(imagePath), bytes) };
  }
  const local = { originals: config.imageRoot, variants: config.imageCacheDir };
  // The originals' folder exists from the first start, with or without the demo library (whose drawer used to be
  // the only one to create it, so a first start with DEMO_LIBRARY=false was never ready). One that cannot be made
  // (a read-only mount not there yet) is /readyz's to report.
  await mkdir(config.imageRoot, { recursive: true, mode: 0o700 }).catch((err: unknown) =>
    ctx.log.warn({ err, imageRoot: config.imageRoot }, 'IMAGE_ROOT cannot be created'),
  );
  // The image host's own store never writes an original (the demo drawer's drawings excepted); operators' uploads
  // go through a store of their own on the same directories.
  const uploads = createLocalStorage({ ...local, writesOriginals: true });
  return {
    ...createLocalStorage({ ...local, writesOriginals: ctx.demoDrawer !== undefined }),
    putOriginal: (imagePath, bytes) => uploads.put(originalKey(imagePath), bytes),
  };
}
