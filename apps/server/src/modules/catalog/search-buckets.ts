import type { FastifyBaseLogger } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import type { CatalogRepository } from './catalog.repository.ts';

/** How often the job looks for books whose reads crossed a bucket. */
const EVERY_MS = 10_000;
/** Books moved per pass (one transaction): each re-indexes at most BOOK_TEXT_LIMITS' text, a few ms. */
const BATCH = 50;

/**
 * The search-buckets job (once across servers, by its advisory lock): a read only counts (read_count + 1) and never
 * re-indexes a book's text; this job moves the books whose read count left the bucket their search postings hold
 * (books.indexed_bucket) to their current one, BATCH books a transaction, again at once while batches come full
 * (docs/decisions.md, "Read counts never re-index a book's text").
 */
export function createSearchBuckets(
  repo: Pick<CatalogRepository, 'moveSearchBuckets'>,
  opts: { log: FastifyBaseLogger },
) {
  /** Moves up to `batch` books; answers how many. */
  const moveBatch = (batch = BATCH) => repo.moveSearchBuckets(batch);
  const loop = backgroundLoop({
    name: 'search-buckets',
    intervalMs: EVERY_MS,
    run: async () => (await moveBatch()) === BATCH,
    log: opts.log,
  });
  return { moveBatch, loop };
}
