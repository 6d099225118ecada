/**
 * Remembers, for a short time, which page paths belong to a free chapter. A page request without a grant asks the
 * database once per path per `ttlMs`; a chapter that becomes priced is protected within that time on every
 * server. Bounded: a full map is emptied (junk paths cost one lookup each, never memory).
 */
export function cachedFreePages(
  lookup: (path: string) => Promise<boolean>,
  { ttlMs = 30_000, maxEntries = 50_000, now = Date.now } = {},
) {
  const known = new Map<string, { free: boolean; until: number }>();
  return async (path: string): Promise<boolean> => {
    const hit = known.get(path);
    if (hit && hit.until > now()) return hit.free;
    const free = await lookup(path);
    if (known.size >= maxEntries) known.clear();
    known.set(path, { free, until: now() + ttlMs });
    return free;
  };
}
