import path from 'node:path';
import type { ChapterInfo } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.ts';
import type { ModuleContext } from '../module-context.ts';
import type { AuditEntry } from '../operators/index.ts';
import { createConsoleRepository } from './books.console.repository.ts';
import { booksConsoleRoutes } from './books.console.routes.ts';
import { createCatalogRepository } from './catalog.repository.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { type CatalogDeps, freeChapter } from './catalog.service.ts';
import { createHomeConsoleRepository } from './home.console.repository.ts';
import { homeConsoleRoutes } from './home.console.routes.ts';
import { describeImportFailure, importRoutes } from './import/import.routes.ts';
import { createImportJobs, createImportWorker, uploadPlace } from './import/import-jobs.ts';
import type { ImportOptions, ImportReport, ImportRun } from './import/index.ts';
import { runImport } from './import/index.ts';
import { createScheduledChapters } from './scheduled-chapters.ts';
import { createSearchBuckets } from './search-buckets.ts';
import { consoleUploads } from './uploads.console.routes.ts';

// The importer (npm run import, the control socket): read by the command line and main.ts.
export * as importer from './import/index.ts';

/** What other modules may ask of the catalogue: what the image host needs to decide about a page path. */
export interface CatalogPort {
  /** True when a free chapter lists this page path (it is served without a grant). */
  isFreePage(path: string): Promise<boolean>;
  /** True when a book, chapter, page or ad names this image path. */
  isKnownImage(path: string): Promise<boolean>;
  /** A free chapter of a published book as read_chapter answers it, read counted nowhere; null for any other. */
  freeChapter(bookId: number, number: number): Promise<ChapterInfo | null>;
  /** Imports a book from a file or folder on this machine (the control socket's `npm run import`). */
  importFrom(run: ImportRun): Promise<ImportReport>;
}

/** Books, chapters, lists, search, categories, ads and hot words; reading a chapter; the console's catalogue calls. */
export async function registerCatalog(app: FastifyInstance, ctx: ModuleContext): Promise<CatalogPort> {
  const repo = createCatalogRepository(ctx.db);
  const deps: CatalogDeps = {
    repo,
    ownedChapters: (userId, chapterIds) => ctx.ports.wallet.ownedChapters(userId, chapterIds),
    grantPage: (path) => ctx.ports.images.grantPage(path),
  };
  await catalogRoutes(app, deps);
  const audited = {
    audit: (q: Queryable, entry: AuditEntry) => ctx.ports.operators.audit(q, entry),
    changed: () => ctx.catalogueChanged(),
  };
  await booksConsoleRoutes(app, { repo: createConsoleRepository(ctx.db), ...audited });
  const scheduled = createScheduledChapters(ctx.db, {
    changed: audited.changed,
    log: ctx.log.child({ job: 'scheduled-chapters' }),
  });
  ctx.jobs.add(scheduled.loop);
  ctx.jobs.add(createSearchBuckets(ctx.db, { log: ctx.log.child({ job: 'search-buckets' }) }).loop);
  await homeConsoleRoutes(app, { repo: createHomeConsoleRepository(ctx.db), ...audited });
  const runner = {
    db: ctx.db,
    putOriginal: (imagePath: string, bytes: Buffer) => ctx.ports.storage.putOriginal(imagePath, bytes),
    ...audited,
  };
  // Uploads (an archive to import, a cover, an ad's picture) in a context of their own: only these routes read
  // multipart forms.
  // Uploaded imports: a queue in the database, worked by the servers on the data directory holding the archive.
  const uploadDir = path.join(ctx.config.dataDir, 'uploads');
  const place = await uploadPlace(uploadDir);
  const jobs = createImportJobs(ctx.db);
  const log = ctx.log.child({ job: 'import-jobs' });
  const worker = createImportWorker({
    jobs,
    place,
    run: (job, progress) =>
      runImport(runner, {
        source: job.source,
        options: job.options as ImportOptions,
        by: { operatorId: job.operatorId, actor: job.actor },
        progress,
      }),
    describe: (err) => describeImportFailure(err, log),
    log,
  });
  ctx.jobs.add(worker.loop);
  app.addHook('preClose', async () => worker.close());
  await app.register(async (uploads) => {
    await consoleUploads(uploads, ctx);
    await importRoutes(uploads, {
      jobs,
      kick: worker.kick,
      uploadDir,
      place,
      maxBytes: ctx.config.importUploadBytes,
    });
  });
  return {
    isFreePage: repo.isFreePage,
    isKnownImage: repo.isKnownImage,
    freeChapter: (bookId, number) => freeChapter(deps, { bookId, number }),
    importFrom: (run) => runImport(runner, run),
  };
}
