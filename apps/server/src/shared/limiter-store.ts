import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import {
  type RateLimiterAbstract,
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';
import { type BackgroundLoop, backgroundLoop } from './background-loop.ts';
import { createLimitsRepository } from './limiter-store.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The counters every server shares: the per-route limits and the users module's attempt limits. */
    limits: LimiterStore;
  }
}

/** The stores counts can live in: see createLimiterStore. */
export type LimiterStoreKind = 'database' | 'redis' | 'memory';

export interface LimiterStore {
  readonly kind: LimiterStoreKind;
  /**
   * Counts attempts per key in fixed windows of `windowMs`, each window starting at its key's first attempt.
   * Counters of the same name share their counts (on every server, for the shared stores); a name has one window.
   * The counter never refuses (its limit is out of reach): callers compare the count with their own limits, so
   * one counter serves keys of different limits.
   */
  counter(name: string, windowMs: number): RateLimiterAbstract;
  /** Removes counts whose window ended, a batch at a time (the database store; the others expire their own). */
  sweeper?: BackgroundLoop;
  close(): Promise<void>;
}

// Out of reach of any count, and within the database column's integer.
const NEVER_REFUSED = 2 ** 31 - 1;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 5000;

/** A store from its counter factory, keeping one counter per name (counters of one name share one window). */
function storeOf(
  kind: LimiterStoreKind,
  make: (name: string, durationSeconds: number) => RateLimiterAbstract,
  extra: Pick<LimiterStore, 'sweeper' | 'close'>,
): LimiterStore {
  const counters = new Map<string, RateLimiterAbstract>();
  return {
    kind,
    counter(name, windowMs) {
      const seconds = Math.ceil(windowMs / 1000);
      let counter = counters.get(name);
      if (!counter) {
        counter = make(name, seconds);
        counters.set(name, counter);
      } else if (counter.duration !== seconds) {
        throw new Error(
          `limit counter ${name} is counted in windows of ${counter.duration} s, not ${seconds} s`,
        );
      }
      return counter;
    },
    ...extra,
  };
}

/** Counts in this process only, forgotten on restart: unit tests, and an insurance while Redis is unreachable. */
export function memoryLimiterStore(): LimiterStore {
  return storeOf(
    'memory',
    (name, duration) => new RateLimiterMemory({ keyPrefix: name, points: NEVER_REFUSED, duration }),
    { close: async () => undefined },
  );
}

/**
 * Counts in the `rate_limits` table (migration 0005) with rate-limiter-flexible's RateLimiterDrizzle: one atomic
 * upsert per count, on the same database every server uses (PostgreSQL, or PGlite, where counts survive a restart
 * too). Ended windows are left to the sweeper (a background job, so one server at a time), not to the store's own
 * timer, which every server would run.
 */
export function databaseLimiterStore(db: Database, log: FastifyBaseLogger): LimiterStore {
  const repo = createLimitsRepository(db);
  const sweep = async (now = new Date()) => {
    const removed = await repo.sweepEnded(now, SWEEP_BATCH);
    if (removed > 0) log.debug({ removed }, 'ended limit windows removed');
    return removed === SWEEP_BATCH;
  };
  return storeOf(
    'database',
    (name, duration) =>
      new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimits,
        keyPrefix: name,
        points: NEVER_REFUSED,
        duration,
        clearExpiredByTimeout: false,
      }),
    {
      sweeper: backgroundLoop({
        name: 'limits-sweeper',
        intervalMs: SWEEP_EVERY_MS,
        run: () => sweep(),
        log,
      }),
      close: async () => undefined,
    },
  );
}

/**
 * Counts in Redis (REDIS_URL) with RateLimiterRedis over ioredis: keys `yueman:limit:<counter>:<key>`, expiring
 * with their window. While Redis is unreachable each server counts in its own memory (the insurance limiter), so
 * limits still hold per server and requests are not refused for it.
 */
export async function redisLimiterStore(url: string, log: FastifyBaseLogger): Promise<LimiterStore> {
  // Loaded only when Redis is configured.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    // Fail at once while disconnected (the insurance counts), rather than queue behind a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
  });
  let lastError = 0;
  redis.on('error', (err: Error) => {
    // ioredis reports every failed reconnect: one line a minute is enough.
    if (Date.now() - lastError < 60_000) return;
    lastError = Date.now();
    log.warn({ err }, 'Redis for the limits unreachable: counting in this process until it is back');
  });
  // Unreachable at start: the server starts all the same, counting in memory, and ioredis keeps reconnecting
  // (docs/scaling.md). The error listener above has logged why.
  await redis.connect().catch(() => undefined);
  return storeOf(
    'redis',
    (name, duration) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `yueman:limit:${name}`,
        points: NEVER_REFUSED,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points: NEVER_REFUSED, duration }),
      }),
    {
      async close() {
        await redis.quit().catch(() => redis.disconnect());
      },
    },
  );
}

/** Redis when `redisUrl` is set, else the database (PostgreSQL or PGlite). */
export function createLimiterStore(opts: {
  db: Database;
  redisUrl: string | undefined;
  log: FastifyBaseLogger;
}): Promise<LimiterStore> | LimiterStore {
  return opts.redisUrl ? redisLimiterStore(opts.redisUrl, opts.log) : databaseLimiterStore(opts.db, opts.log);
}

const toError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/**
 * @fastify/rate-limit's store on our counters: one counter per route (`route:<method> <url>`), keyed as the plugin
 * keys (the client address, req.ip), counting in the route's window. The plugin keeps its answers: 429 through the
 * error handler's envelope, with Retry-After and the x-ratelimit headers.
 */
export function routeLimitStore(limits: LimiterStore): FastifyRateLimitStoreCtor {
  const routeStore = (name: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      limits
        .counter(name, timeWindow)
        .consume(key)
        .then(
          (res) => callback(null, { current: res.consumedPoints, ttl: res.msBeforeNext }),
          (err: unknown) =>
            err instanceof RateLimiterRes
              ? callback(null, { current: err.consumedPoints, ttl: err.msBeforeNext })
              : callback(toError(err)),
        );
    },
    child(routeOptions) {
      const route = (routeOptions as unknown as { routeInfo: { method: string | string[]; url: string } })
        .routeInfo;
      return routeStore(`route:${[route.method].flat().join(',')} ${route.url}`);
    },
  });
  // The plugin constructs its store with `new`: a constructor function that answers the store object.
  return function SharedRouteStore() {
    return routeStore('route:global');
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * The limits of the whole app: builds the store (Redis with REDIS_URL, else the database), decorates
 * `app.limits` with it for the modules' attempt counters, and registers @fastify/rate-limit (per-route limits
 * only, `config.rateLimit` on a route) counting in it. The store closes with the app.
 */
export async function registerLimits(
  app: FastifyInstance,
  opts: { db: Database; redisUrl: string | undefined },
): Promise<LimiterStore> {
  const limits = await createLimiterStore({ ...opts, log: app.log.child({ job: 'limits' }) });
  app.decorate('limits', limits);
  app.addHook('onClose', () => limits.close());
  await app.register(rateLimit, { global: false, store: routeLimitStore(limits) });
  return limits;
}
