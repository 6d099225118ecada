import type { FastifyBaseLogger } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import { chinaDate } from '../../shared/china-time.ts';
import type { SearchTermsRepository, TermCount } from './search-terms.repository.ts';

/** How often a server adds its counts to the database. */
const EVERY_MS = 30_000;
/** Different keywords a server counts between two flushes at most: a flood of random words cannot grow it. */
const MAX_KEYWORDS = 5_000;

/**
 * What readers search for, counted in this server's memory (a search writes nothing) and added to search_terms
 * every half minute: the console's top and zero-result searches. A server stopped between two flushes loses at most
 * that half minute of counts (docs/decisions.md, "Search the way readers type").
 */
export function createSearchCounts(
  repo: Pick<SearchTermsRepository, 'add'>,
  opts: { log: FastifyBaseLogger },
) {
  let pending = new Map<string, TermCount>();
  const counted = (keyword: string, found: boolean) => {
    let count = pending.get(keyword);
    if (!count) {
      if (pending.size >= MAX_KEYWORDS) return;
      count = { keyword, searches: 0, misses: 0 };
      pending.set(keyword, count);
    }
    count.searches += 1;
    if (!found) count.misses += 1;
  };
  /** Adds what was counted since the last flush (kept for the next one if the database refuses). */
  const flush = async () => {
    if (pending.size === 0) return;
    const counts = pending;
    pending = new Map();
    try {
      await repo.add(chinaDate(new Date()), [...counts.values()]);
    } catch (err) {
      for (const c of counts.values()) {
        const now = pending.get(c.keyword);
        if (now) {
          now.searches += c.searches;
          now.misses += c.misses;
        } else if (pending.size < MAX_KEYWORDS) pending.set(c.keyword, c);
      }
      throw err;
    }
  };
  const loop = backgroundLoop({
    name: 'search-counts',
    intervalMs: EVERY_MS,
    run: async () => {
      await flush();
      return false;
    },
    log: opts.log,
  });
  return { counted, flush, loop };
}
