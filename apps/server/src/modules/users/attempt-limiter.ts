/**
 * Counts attempts per key in a fixed window, in this process's memory (the server is one process: the data-dir
 * lock holds PGlite to one, and rate limits are per process anyway, like @fastify/rate-limit's default store).
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    /** Beyond this many keys, expired windows are dropped, then the oldest: memory stays bounded. */
    private readonly maxKeys = 100_000,
  ) {}

  /**
   * Counts one attempt on every key, or none when any key is at its limit: then answers the seconds to wait.
   * Checking and counting happen in one synchronous step, so parallel requests cannot all slip through.
   */
  take(keys: { key: string; max: number }[]): number {
    const now = this.now();
    let wait = 0;
    for (const { key, max } of keys) {
      const window = this.current(key, now);
      if (window && window.count >= max) wait = Math.max(wait, Math.ceil((window.resetAt - now) / 1000));
    }
    if (wait > 0) return wait;
    for (const { key } of keys) {
      const window = this.current(key, now);
      if (window) window.count++;
      else this.start(key, now);
    }
    return 0;
  }

  /** Gives back one counted attempt (a correct password does not count against an address). */
  giveBack(key: string) {
    const window = this.current(key, this.now());
    if (window && window.count > 0) window.count--;
  }

  /** Forgets a key (a correct password clears its account's failures). */
  clear(key: string) {
    this.windows.delete(key);
  }

  private current(key: string, now: number) {
    const window = this.windows.get(key);
    if (window && window.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private start(key: string, now: number) {
    if (this.windows.size >= this.maxKeys) this.prune(now);
    this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
  }

  private prune(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full of live windows: drop the oldest tenth (insertion order is start order).
    let excess = this.windows.size - Math.floor(this.maxKeys * 0.9);
    for (const key of this.windows.keys()) {
      if (excess-- <= 0) break;
      this.windows.delete(key);
    }
  }
}
