/**
 * What one server process keeps in memory on purpose, for /metrics (modules/metrics): the resident memory the
 * operator expects it to stay under (MEMORY_BOUND_MB) and each in-memory cache with its byte bound. Every cache of
 * the server is bounded by bytes, not entries, so the sum of the limits is what the caches may hold whatever the
 * requests (docs/operations.md, "Memory").
 */
export interface MeasuredCache {
  /** The bytes it holds now (its own accounting of bodies, keys and bookkeeping). */
  bytes(): number;
  /** The most bytes it holds. */
  limitBytes: number;
}

export class MemoryAccount {
  readonly #caches = new Map<string, MeasuredCache>();

  constructor(readonly boundBytes: number) {}

  /** A cache by its name in the `cache` label (a fixed, short list: images, static, landing…). */
  add(name: string, cache: MeasuredCache): void {
    this.#caches.set(name, cache);
  }

  caches(): [string, MeasuredCache][] {
    return [...this.#caches];
  }
}
