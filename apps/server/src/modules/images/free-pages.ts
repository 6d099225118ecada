import { LRUCache } from 'lru-cache';

/** An entry's bookkeeping besides its path: the cache's slots, its TTL arrays and the boolean. */
const PATH_OVERHEAD_BYTES = 64;

/**
 * Remembers, for a short time, which page paths belong to a free chapter. A page request without a grant asks the
 * database once per path per `ttlMs` (concurrent first requests share that one lookup); a chapter that becomes
 * priced is protected within that time on every server. Bounded by entries and by bytes (`maxBytes`: the paths as
 * UTF-16 strings and the cache's bookkeeping): junk paths push out the least recently used.
 */
export function cachedFreePages(
  lookup: (path: string) => Promise<boolean>,
  { ttlMs = 30_000, maxEntries = 50_000, maxBytes = 8 * 1024 * 1024, now = Date.now } = {},
) {
  const known = new LRUCache<string, boolean>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (_free, path) => path.length * 2 + PATH_OVERHEAD_BYTES,
    ttl: ttlMs,
    // Read the clock on every check: the default caches it for a millisecond, which a test clock outruns.
    ttlResolution: 0,
    perf: { now },
    fetchMethod: (path) => lookup(path),
  });
  // Undefined only if the fetch were aborted; a page is free only when the database says so.
  const isFree = async (path: string): Promise<boolean> => (await known.fetch(path)) ?? false;
  /** Without waiting: true only when a fresh answer of the database said free (no promise on a kept answer). */
  const knownFree = (path: string): boolean => known.get(path) === true;
  /** Forgets what it knows: a price changed, and the database is asked again. */
  const forget = () => known.clear();
  /** The bytes it holds now (its own accounting), at most `maxBytes`. */
  const memory = { bytes: () => known.calculatedSize, limitBytes: maxBytes };
  return Object.assign(isFree, { knownFree, forget, memory });
}
