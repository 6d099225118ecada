import { type LimiterStore, memoryLimiterStore } from '../limiter-store.ts';

/** A key to count an attempt on, and how many attempts it may have in one window. */
export interface AttemptKey {
  key: string;
  max: number;
}

/**
 * Counts attempts per key in a fixed window, with rate-limiter-flexible, in the app's limiter store
 * (shared/limiter-store.ts: the database or Redis, so every server counts together and a restart forgets
 * nothing; memory when none is given). `name` is the counter's name in the store. The store only counts: each
 * key's own limit is compared here, so one counter serves keys of different limits, and a key's window ends
 * `windowMs` after its first attempt (the store then forgets it).
 */
export function createAttemptLimiter(windowMs: number, opts: { store?: LimiterStore; name?: string } = {}) {
  const store = (opts.store ?? memoryLimiterStore()).counter(opts.name ?? 'attempts', windowMs);

  return {
    /**
     * Counts one attempt on every key, or none when any key is over its limit: then answers the seconds to wait.
     * Every key is counted first (one atomic step per key) and the counts of a refused attempt are given back, so
     * parallel attempts can never all slip through, on one server or on many.
     */
    async take(keys: AttemptKey[]): Promise<number> {
      const counted = await Promise.all(keys.map(({ key }) => store.consume(key)));
      let wait = 0;
      counted.forEach((res, i) => {
        const over = res.consumedPoints > (keys[i]?.max ?? 0);
        if (over) wait = Math.max(wait, Math.ceil(res.msBeforeNext / 1000));
      });
      if (wait > 0) await Promise.all(keys.map(({ key }) => store.reward(key)));
      return wait;
    },

    /** Gives back one counted attempt (a correct password does not count against an address). */
    async giveBack(key: string) {
      const res = await store.get(key);
      if (res && res.consumedPoints > 0) await store.reward(key);
    },

    /** Forgets a key (a correct password clears its account's failures). */
    async clear(key: string) {
      await store.delete(key);
    },
  };
}

export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
