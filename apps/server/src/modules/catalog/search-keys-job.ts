import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { backgroundLoop } from '../../shared/background-loop.ts';
import { fillSearchKeys } from './search-keys.repository.ts';

/** How often the job looks for books without search keys. */
const EVERY_MS = 2_000;
/** Books keyed per pass (one transaction): ~0.1 ms of pinyin and folding each, and their rows. */
const BATCH = 500;

/**
 * The search-keys job (once across servers, by its advisory lock): computes the search keys of books written
 * without them: by SQL or an older server, or all of them after a migration that changes how keys are made. The
 * server's own writers (the console's edit, the importer, the seeds) write a book's keys with it, so their books
 * are searchable at once; this job is what makes every other writer's change searchable within a few seconds
 * (docs/decisions.md, "Search the way readers type"). While it finds full batches it goes on at once (the loop runs
 * again when a pass asks for more), so a backlog is worked off back to back, not a batch per tick.
 */
export function createSearchKeysJob(db: Database, opts: { log: FastifyBaseLogger }) {
  let after = 0;
  return backgroundLoop({
    name: 'search-keys',
    intervalMs: EVERY_MS,
    run: async () => {
      const { read, last } = await db.transaction((tx) => fillSearchKeys(tx, BATCH, after));
      // From the lowest id again once a pass comes short: a book whose keys could not be written (its text
      // changed meanwhile) is read again then.
      after = read === BATCH ? last : 0;
      return read === BATCH;
    },
    log: opts.log,
  });
}
