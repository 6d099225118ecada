import type { FastifyBaseLogger } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import type { CatalogRepository } from './catalog.repository.ts';

// The console's chapter writes count a book's chapters with the same query.
export { recountChapters } from './catalog.repository.ts';

/** How often due chapters are let out: a chapter scheduled for 20:00 is out by 20:00:30 (plus the 5 s caches). */
const EVERY_MS = 30_000;

/**
 * Scheduled chapters: a job (once across servers, by its advisory lock) lets out every chapter whose time has come,
 * in one transaction with its book's count and update time, then drops this server's kept answers (`changed`).
 */
export function createScheduledChapters(
  repo: Pick<CatalogRepository, 'publishDueChapters'>,
  opts: { changed(): void; log: FastifyBaseLogger },
) {
  const publishDue = async (now = new Date()) => {
    const due = await repo.publishDueChapters(now);
    if (due > 0) {
      opts.changed();
      opts.log.info({ chapters: due }, 'scheduled chapters are out');
    }
    return due;
  };
  const loop = backgroundLoop({
    name: 'scheduled-chapters',
    intervalMs: EVERY_MS,
    run: async () => (await publishDue()) < 0,
    log: opts.log,
  });
  return { publishDue, loop };
}
