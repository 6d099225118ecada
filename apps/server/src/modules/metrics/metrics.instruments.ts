import client from 'prom-client';
import type { MemoryAccount } from '../../shared/memory-account.ts';

/**
 * The instruments behind GET /metrics (prom-client, Prometheus text format). One registry per app (tests build
 * many apps in one process) and one process-wide registry for prom-client's default process metrics, which
 * watch the process itself (CPU, memory, event loop lag, GC) and must be set up once per process.
 *
 * Counting must stay cheap: a request through Fastify costs one counter increment and one histogram
 * observation (about a microsecond), kept static answers and kept images included (they are Fastify answers too).
 */

/** The route label of requests no route matched (404s). */
export const UNMATCHED_ROUTE = '(unmatched)';

const HTTP_LABELS = ['method', 'route', 'status_code'] as const;
type HttpLabel = (typeof HTTP_LABELS)[number];

/** What a `pg` Pool tells about its connections (db/client.ts creates it; drizzle keeps it as `$client`). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

let processRegistry: client.Registry | undefined;

/** The default process metrics, collected into one registry for the whole process on first use. */
function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const purposeOf = (purpose: string) =>
  purpose === 'coin' || purpose === 'vip' || purpose === 'card' ? purpose : 'other';

export function createInstruments(opts: {
  pool?: () => PoolStats;
  /** The memory bound and the caches (app.ts, the modules). */
  memory?: MemoryAccount;
  /** The embedded database's WebAssembly memory, in bytes (PGlite; undefined on PostgreSQL). */
  databaseWasmBytes?: () => number;
}) {
  const registry = new client.Registry();
  const registers = [registry];
  const perProcess = processMetrics();

  const requests: client.Counter<HttpLabel> = new client.Counter({
    name: 'yueman_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: HTTP_LABELS,
    registers,
  });
  const duration = new client.Histogram({
    name: 'yueman_http_request_duration_seconds',
    help: 'Time from a request reaching Fastify to its answer sent, by method, route pattern and status',
    labelNames: HTTP_LABELS,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  const ordersCreated = new client.Counter({
    name: 'yueman_pay_orders_created_total',
    help: 'Pay orders created (a repeated tap that gets the open order again is not counted), by purpose',
    labelNames: ['purpose'],
    registers,
  });
  const ordersPaid = new client.Counter({
    name: 'yueman_pay_orders_paid_total',
    help: 'Pay orders marked paid and credited by a verified notification',
    registers,
  });
  const ordersExpired = new client.Counter({
    name: 'yueman_pay_orders_expired_total',
    help: 'Unpaid pay orders the sweeper expired',
    registers,
  });
  const notifications = new client.Counter({
    name: 'yueman_pay_notifications_total',
    help: 'Payment notifications from gateways: accepted (credited, a duplicate of a paid order, or recorded: a state that is not a payment) or refused',
    labelNames: ['result'],
    registers,
  });
  const coinsSpent = new client.Counter({
    name: 'yueman_coins_spent_total',
    help: 'Coins spent on chapters',
    registers,
  });
  const chaptersBought = new client.Counter({
    name: 'yueman_chapters_bought_total',
    help: 'Chapters bought with coins (free chapters and chapters already owned are not counted)',
    registers,
  });
  const imageCache = new client.Counter({
    name: 'yueman_image_cache_lookups_total',
    help: 'Image answers looked up in a cache tier (memory: answers in this process; disk: resized variants in the image store), hit or miss',
    labelNames: ['tier', 'outcome'],
    registers,
  });
  const resizeSeconds = new client.Histogram({
    name: 'yueman_image_resize_seconds',
    help: 'Time to resize one source image to WebP',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });

  // Known label values start at 0, so rates and dashboards see the series before the first event.
  for (const purpose of ['coin', 'vip', 'card']) ordersCreated.inc({ purpose }, 0);
  for (const result of ['accepted', 'refused']) notifications.inc({ result }, 0);
  for (const tier of ['memory', 'disk'])
    for (const outcome of ['hit', 'miss']) imageCache.inc({ tier, outcome }, 0);

  const { pool } = opts;
  if (pool) {
    const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
      new client.Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(pool()));
        },
      });
    gauge('yueman_db_pool_connections', 'PostgreSQL pool: connections open (busy and idle)', (s) => s.total);
    gauge('yueman_db_pool_idle_connections', 'PostgreSQL pool: connections open and idle', (s) => s.idle);
    gauge(
      'yueman_db_pool_waiting_clients',
      'PostgreSQL pool: queries waiting for a connection',
      (s) => s.waiting,
    );
    gauge('yueman_db_pool_max_connections', 'PostgreSQL pool: the most connections it opens', (s) => s.max);
  }

  const { memory, databaseWasmBytes } = opts;
  if (memory) {
    new client.Gauge({
      name: 'yueman_memory_bound_bytes',
      help: 'The resident memory this process is expected to stay under (MEMORY_BOUND_MB); compare process_resident_memory_bytes',
      registers,
      collect() {
        this.set(memory.boundBytes);
      },
    });
    new client.Gauge({
      name: 'yueman_memory_cache_bytes',
      help: 'Bytes an in-memory cache of this process holds now (bodies, compressed copies, keys and bookkeeping), by cache',
      labelNames: ['cache'],
      registers,
      collect() {
        for (const [cache, measured] of memory.caches()) this.set({ cache }, measured.bytes());
      },
    });
    new client.Gauge({
      name: 'yueman_memory_cache_limit_bytes',
      help: 'The most bytes an in-memory cache of this process holds, by cache',
      labelNames: ['cache'],
      registers,
      collect() {
        for (const [cache, measured] of memory.caches()) this.set({ cache }, measured.limitBytes);
      },
    });
    new client.Gauge({
      name: 'yueman_memory_array_buffers_bytes',
      help: 'Bytes of ArrayBuffers and Buffers of this process (process.memoryUsage().arrayBuffers), part of nodejs_external_memory_bytes',
      registers,
      collect() {
        this.set(process.memoryUsage().arrayBuffers);
      },
    });
  }
  if (databaseWasmBytes) {
    new client.Gauge({
      name: 'yueman_memory_database_wasm_bytes',
      help: 'The embedded database (PGlite): its WebAssembly memory, which grows and is never given back to the system (part of the resident memory)',
      registers,
      collect() {
        this.set(databaseWasmBytes());
      },
    });
  }

  return {
    contentType: registry.contentType,

    /** One request Fastify answered: `route` is the route's pattern (never the raw URL: bounded labels). */
    request(method: string, route: string | undefined, status: number, seconds: number) {
      const labels = { method, route: route ?? UNMATCHED_ROUTE, status_code: status };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },

    orderCreated(purpose: string) {
      ordersCreated.inc({ purpose: purposeOf(purpose) });
    },
    ordersExpired(count: number) {
      if (count > 0) ordersExpired.inc(count);
    },
    notification(outcome: 'credited' | 'duplicate' | 'recorded' | 'refused') {
      notifications.inc({ result: outcome === 'refused' ? 'refused' : 'accepted' });
      if (outcome === 'credited') ordersPaid.inc();
    },
    chapterBought(coins: number) {
      if (coins <= 0) return;
      chaptersBought.inc();
      coinsSpent.inc(coins);
    },
    imageCache(tier: 'memory' | 'disk', outcome: 'hit' | 'miss') {
      imageCache.inc({ tier, outcome });
    },
    imageResized(seconds: number) {
      resizeSeconds.observe(seconds);
    },

    /** The whole text a scrape answers: the process's metrics, then this app's. */
    async render(): Promise<string> {
      return (await perProcess.metrics()) + (await registry.metrics());
    },
  };
}

export type Instruments = ReturnType<typeof createInstruments>;
