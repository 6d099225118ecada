import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { imageAssets } from '../../db/schema/index.ts';
import { ok } from '../../shared/envelope.ts';
import { notFound } from '../../shared/errors.ts';
import { receiveImage } from '../../shared/upload.ts';
import type { ModuleContext } from '../module-context.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import { adsConsoleRoutes } from './ads.console.routes.ts';
import { bookNotFound } from './catalog.errors.ts';
import { createConsoleRepository } from './books.console.repository.ts';
import { bookView } from './books.console.service.ts';
import { IMAGE_UPLOAD_BYTES, readUploadedImage } from './uploaded-image.ts';

const tags = ['admin'];
const PREVIEW_WIDTHS = [180, 200, 500, 1000] as const;
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
  const repo = createConsoleRepository(ctx.db);
  const putOriginal = (imagePath: string, bytes: Buffer) => ctx.ports.storage.putOriginal(imagePath, bytes);

  r.get(
    '/api/admin/image',
    {
      schema: {
        tags,
        summary: '图片预览（WebP，不加密；封面、广告、页面）',
        querystring: Type.Object({
          path: Type.String({ minLength: 1, maxLength: 512 }),
          w: Type.Union(
            PREVIEW_WIDTHS.map((w) => Type.Literal(w)),
            { default: 200 },
          ),
        }),
      },
      config: { operatorRoles: ANY_ROLE },
    },
    async (req, reply) => {
      const webp = await ctx.ports.images.preview(req.query.path, req.query.w);
      if (!webp) throw notFound('图片不存在');
      // Private to the operator's browser: a priced page's preview must not sit in a shared cache.
      return reply.header('Cache-Control', 'private, max-age=300').type('image/webp').send(webp);
    },
  );

  r.post(
    '/api/admin/books/:id/cover',
    {
      schema: {
        tags,
        summary: '上传封面（multipart：image 为 PNG/JPEG/WebP，≤ 10 MB）',
        consumes: ['multipart/form-data'],
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const editor = auditActorOf(req);
      if (!(await repo.book(req.params.id))) throw bookNotFound();
      const upload = await receiveImage(req, { fileField: 'image', maxBytes: IMAGE_UPLOAD_BYTES });
      const image = await readUploadedImage(upload.file, 'image');
      // Named by its content: a new cover is a new path, so no cache anywhere serves the old picture for it.
      const cover = `covers/uploads/${req.params.id}/${image.hash}.${image.ext}`;
      await putOriginal(cover, image.bytes);
      const saved = await repo.transaction(async (tx) => {
        const before = await repo.book(req.params.id, tx, true);
        if (!before) throw bookNotFound();
        await tx
          .insert(imageAssets)
          .values({ path: cover, width: image.width, height: image.height })
          .onConflictDoNothing();
        const after = await repo.updateBook(tx, req.params.id, { cover, horiCover: cover });
        await ctx.ports.operators.audit(tx, {
          ...editor,
          action: 'book.cover',
          target: `book:${req.params.id}`,
          before: { cover: before.cover },
          after: { cover },
        });
        return after;
      });
      ctx.catalogueChanged();
      return ok({ book: bookView(saved) }, '封面已更新');
    },
  );

  await adsConsoleRoutes(app, {
    db: ctx.db,
    putOriginal,
    audit: (q, entry) => ctx.ports.operators.audit(q, entry),
    changed: () => ctx.catalogueChanged(),
  });
}
