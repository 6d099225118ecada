import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.ts';
import type { ModuleContext } from '../module-context.ts';
import type { AuditEntry } from '../operators/index.ts';
import { createCatalogRepository } from './catalog.repository.ts';
import { catalogRoutes } from './catalog.routes.ts';
import type { CatalogDeps } from './catalog.service.ts';
import { createConsoleRepository } from './console.repository.ts';
import { consoleRoutes } from './console.routes.ts';
import { homeConsoleRoutes } from './home-console.routes.ts';
import { createHomeConsole } from './home-console.ts';
import { createScheduledChapters } from './scheduled-chapters.ts';

// The importer (npm run import, the control socket): read by the command line and main.ts.
export * as importer from './import/index.ts';

/** What other modules may ask of the catalogue: what the image host needs to decide about a page path. */
export interface CatalogPort {
  /** True when a free chapter lists this page path (it is served without a grant). */
  isFreePage(path: string): Promise<boolean>;
  /** True when a book, chapter, page or ad names this image path. */
  isKnownImage(path: string): Promise<boolean>;
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
  await consoleRoutes(app, { repo: createConsoleRepository(ctx.db), ...audited });
  const scheduled = createScheduledChapters(ctx.db, {
    changed: audited.changed,
    log: ctx.log.child({ job: 'scheduled-chapters' }),
  });
  ctx.jobs.add(scheduled.loop);
  await homeConsoleRoutes(app, createHomeConsole(ctx.db, audited));
  return { isFreePage: repo.isFreePage, isKnownImage: repo.isKnownImage };
}
