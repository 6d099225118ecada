import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { receiveImage } from '../../shared/upload.ts';
import type { ModuleContext } from '../module-context.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import { adsConsoleRoutes } from './ads.console.routes.ts';
import { createConsoleRepository } from './books.console.repository.ts';
import { previewImage, setCover } from './books.console.service.ts';
import { IMAGE_UPLOAD_BYTES } from './uploaded-image.ts';

/** Upload folders older than this were left by a server that died mid-import. */
const LEFTOVER_MS = 24 * 3600 * 1000;

/** Removes upload folders a dead server left behind (not the ones another server may be importing now). */
async function sweepLeftovers(dir: string) {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith('.')) continue; // .place: the data directory's id on the import queue
    const folder = path.join(dir, name);
    const info = await stat(folder).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > LEFTOVER_MS) await rm(folder, { recursive: true, force: true });
  }
}

/**
 * The console's calls that take a picture or an archive (multipart forms, read only in this context), and the
 * previews of stored pictures: a cover (a book's), an ad's picture, any stored image at a width.
 */
export async function consoleUploads(app: FastifyInstance, ctx: ModuleContext) {
  await app.register(multipart, {
    limits: { fileSize: Math.max(ctx.config.importUploadBytes, IMAGE_UPLOAD_BYTES), files: 1, fields: 20 },
  });
  await sweepLeftovers(path.join(ctx.config.dataDir, 'uploads'));
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const putOriginal = (imagePath: string, bytes: Buffer) => ctx.ports.storage.putOriginal(imagePath, bytes);
  const audit: typeof ctx.ports.operators.audit = (q, entry) => ctx.ports.operators.audit(q, entry);
  const changed = () => ctx.catalogueChanged();
  const deps = {
    repo: createConsoleRepository(ctx.db),
    audit,
    changed,
    putOriginal,
    preview: (imagePath: string, width: number) => ctx.ports.images.preview(imagePath, width),
  };

  r.route({
    ...contractRoute(adminRoutes.image, { config: { operatorRoles: ANY_ROLE } }),
    handler: async (req, reply) => {
      const webp = await previewImage(deps, req.query);
      // Private to the operator's browser: a priced page's preview must not sit in a shared cache.
      return reply.header('Cache-Control', 'private, max-age=300').type('image/webp').send(webp);
    },
  });

  r.route({
    ...contractRoute(adminRoutes.uploadCover, { config: { operatorRoles: CATALOGUE_WRITERS } }),
    handler: async (req) => {
      const saved = await setCover(deps, {
        id: req.params.id,
        receive: () => receiveImage(req, { fileField: 'image', maxBytes: IMAGE_UPLOAD_BYTES }),
        editor: auditActorOf(req),
      });
      return ok(saved, '封面已更新');
    },
  });

  await adsConsoleRoutes(app, { db: ctx.db, putOriginal, audit, changed });
}
