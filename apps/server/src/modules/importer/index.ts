import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { createImportJobs } from './import-jobs.repository.ts';
import { createImportWorker, uploadPlace } from './import-jobs.ts';
import { runImport } from './import-runner.ts';
import type { ImporterPort, ImportOptions } from './importer.port.ts';
import { createImporterRepository } from './importer.repository.ts';
import { describeImportFailure, importRoutes } from './imports.console.routes.ts';

// `npm run import` (on its own or through the running server) and the console's upload all run runImport.
export { ImportRefused, importBook, MAX_CHAPTER_PAGES, partialReportOf, planImport } from './import-book.ts';
export { UnreadablePage } from './import-pages.ts';
export { type ImportRunnerDeps, runImport } from './import-runner.ts';
export { ImportSourceError, readBookSource } from './import-source.ts';
export type { ImportActor, ImporterPort, ImportOptions, ImportReport, ImportRun } from './importer.port.ts';
export { createImporterRepository } from './importer.repository.ts';

/**
 * The importer: a book from an archive or a folder (pages decoded whole, tall pages cut), through `runImport`, the one
 * path of `npm run import`, the control socket and the console's upload; the upload queue (import_jobs) and its
 * worker; the console's upload routes, in a context of their own (only there are multipart forms read).
 */
export async function registerImporter(app: FastifyInstance, ctx: ModuleContext): Promise<ImporterPort> {
  const runner = {
    repo: createImporterRepository(ctx.db),
    putOriginal: (imagePath: string, bytes: Buffer) => ctx.ports.storage.putOriginal(imagePath, bytes),
    audit: (entry: Parameters<typeof ctx.ports.operators.audit>[1]) =>
      ctx.ports.operators.audit(ctx.db, entry),
    changed: () => ctx.catalogueChanged(),
  };
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
    await uploads.register(multipart, {
      limits: { fileSize: ctx.config.importUploadBytes, files: 1, fields: 20 },
    });
    await importRoutes(uploads, {
      jobs,
      kick: worker.kick,
      uploadDir,
      place,
      maxBytes: ctx.config.importUploadBytes,
    });
  });
  return { importFrom: (run) => runImport(runner, run) };
}
