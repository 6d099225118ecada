import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.ts';
import type { ModuleContext } from '../module-context.ts';
import type { AuditEntry } from '../operators/operators.port.ts';
import { createConsoleRepository } from './books.console.repository.ts';
import { booksConsoleRoutes } from './books.console.routes.ts';
import type { CatalogPort } from './catalog.port.ts';
import { createCatalogRepository } from './catalog.repository.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { type CatalogDeps, freeChapter } from './catalog.service.ts';
import { createHomeConsoleRepository } from './home.console.repository.ts';
import { homeConsoleRoutes } from './home.console.routes.ts';
import { createScheduledChapters } from './scheduled-chapters.ts';
import { createSearchBuckets } from './search-buckets.ts';
import { createSearchCounts } from './search-counts.ts';
import { createSearchKeysJob } from './search-keys-job.ts';
import { createSearchTermsRepository } from './search-terms.repository.ts';
import { consoleUploads } from './uploads.console.routes.ts';

export type { CatalogPort } from './catalog.port.ts';
/** A book's search keys, for the server's other writers of books (the importer): computed as a book is written. */
export { insertPinyinKeys } from './search-keys.repository.ts';
export { searchKeysOf } from './search-keys.ts';

/** Books, chapters, lists, search, categories, ads and hot words; reading a chapter; the console's catalogue calls. */
export async function registerCatalog(app: FastifyInstance, ctx: ModuleContext): Promise<CatalogPort> {
  const repo = createCatalogRepository(ctx.db);
  const deps: CatalogDeps = {
    repo,
    unlocks: {
      heldUnlock: (userId, chapterId) => ctx.ports.wallet.heldUnlock(userId, chapterId),
      unlockOptions: (userId, chapterId) => ctx.ports.wallet.unlockOptions(userId, chapterId),
      chapterMarks: (userId, bookId) => ctx.ports.wallet.chapterMarks(userId, bookId),
      bookWaitFree: (bookId) => ctx.ports.wallet.bookWaitFree(bookId),
    },
    grantPage: (path) => ctx.ports.images.grantPage(path),
  };
  const searchTerms = createSearchTermsRepository(ctx.db);
  const searchCounts = createSearchCounts(searchTerms, {
    log: ctx.log.child({ job: 'search-counts' }),
  });
  ctx.jobs.add(searchCounts.loop);
  ctx.jobs.add(createSearchKeysJob(ctx.db, { log: ctx.log.child({ job: 'search-keys' }) }));
  await catalogRoutes(app, deps, searchCounts.counted);
  const audited = {
    audit: (q: Queryable, entry: AuditEntry) => ctx.ports.operators.audit(q, entry),
    changed: () => ctx.catalogueChanged(),
  };
  await booksConsoleRoutes(app, { repo: createConsoleRepository(ctx.db), ...audited });
  const scheduled = createScheduledChapters(repo, {
    changed: audited.changed,
    log: ctx.log.child({ job: 'scheduled-chapters' }),
  });
  ctx.jobs.add(scheduled.loop);
  ctx.jobs.add(createSearchBuckets(repo, { log: ctx.log.child({ job: 'search-buckets' }) }).loop);
  await homeConsoleRoutes(app, { repo: createHomeConsoleRepository(ctx.db), terms: searchTerms, ...audited });
  // The console's uploads (a cover, an ad's picture) in a context of their own: only these routes read multipart forms.
  await app.register(async (uploads) => {
    await consoleUploads(uploads, ctx);
  });
  return {
    isFreePage: repo.isFreePage,
    isKnownImage: repo.isKnownImage,
    freeChapter: (bookId, number) => freeChapter(deps, { bookId, number }),
  };
}
