import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { behindTransactionPooler, type Database } from './db/client.ts';
import { registerCatalog } from './modules/catalog/index.ts';
import { registerImages } from './modules/images/index.ts';
import { registerImporter } from './modules/importer/index.ts';
import { registerMetrics } from './modules/metrics/index.ts';
import type { ModuleContext, Ports } from './modules/module-context.ts';
import { registerNotices } from './modules/notices/index.ts';
import { registerOperators } from './modules/operators/index.ts';
import { registerPayments } from './modules/payments/index.ts';
import { registerSandbox } from './modules/sandbox/index.ts';
import { registerStorage } from './modules/storage/index.ts';
import { registerSupport } from './modules/support/index.ts';
import { registerUsers } from './modules/users/index.ts';
import { registerWallet } from './modules/wallet/index.ts';
import { registerWeb } from './modules/web/index.ts';
import { BackgroundJobs } from './shared/background-loop.ts';
import { type DiskGuard, registerDiskGuard } from './shared/disk-space.ts';
import { frameworkError, registerErrorHandler } from './shared/error-handler.ts';
import { registerInputGuard } from './shared/input-guard.ts';
import { registerLimits } from './shared/limiter-store.ts';
import { MemoryAccount } from './shared/memory-account.ts';
import { refusalSchemas, swaggerOptions } from './shared/openapi.ts';
import { registerOriginCheck } from './shared/origin-check.ts';
import { registerSecurityHeaders, securityHeaders } from './shared/security-headers.ts';
import { StaticAnswers } from './shared/static-answers.ts';
import staticCache from './shared/static-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every module's port: for main.ts, operations and tests (modules get them through their context). */
    ports: Ports;
    /** The background loops; main.ts starts them once the server listens, app.close() stops them. */
    jobs: BackgroundJobs;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/**
 * How long a kept-alive connection may stay idle (node:http's own default, which the server keeps). A proxy in
 * front keeps its idle upstream connections for less (deploy/nginx/yueman.conf: 4 s), so it never sends a
 * request on a connection the server is closing.
 */
export const KEEP_ALIVE_MS = 5000;

export interface AppDeps {
  config: Config;
  db: Database;
  logger?: FastifyServerOptions['logger'];
  /** How long a static answer is reused; 0 turns the cache off (tests that change data). */
  staticCacheMs?: number;
  /** The demo library's drawer (main.ts hands it in only when the demo library is on). */
  demoDrawer?: ModuleContext['demoDrawer'];
  /** The free space of DATA_DIR (main.ts, embedded database only): below its margin, writes answer 503. */
  diskGuard?: DiskGuard;
}

/**
 * Every module, in the order they register: users first (its identity plugin resolves the session of every
 * dynamic route registered after it), the web app's catch-all last.
 */
const MODULES = [
  ['operators', registerOperators],
  ['users', registerUsers],
  ['wallet', registerWallet],
  ['catalog', registerCatalog],
  ['importer', registerImporter],
  ['storage', registerStorage],
  ['images', registerImages],
  ['payments', registerPayments],
  ['sandbox', registerSandbox],
  ['support', registerSupport],
  ['notices', registerNotices],
  ['metrics', registerMetrics],
  ['web', registerWeb],
] as const;

/** Builds the whole service: plugins, then modules, then one error handler. */
export async function buildApp({
  config,
  db,
  logger = false,
  staticCacheMs = 5000,
  demoDrawer,
  diskGuard,
}: AppDeps) {
  const protective = securityHeaders({ https: config.publicOrigin.startsWith('https://') });
  // Three quarters of STATIC_CACHE_MB; the landing pages have the rest (modules/web).
  const answers = new StaticAnswers({
    ttlMs: staticCacheMs,
    maxBytes: config.staticCacheBytes - Math.floor(config.staticCacheBytes / 4),
  });
  const memory = new MemoryAccount(config.memoryBoundBytes);
  memory.add('static', { bytes: () => answers.bytes(), limitBytes: answers.maxBytes });
  const app = Fastify({
    logger,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // A hop count as proxy-addr reads it: the socket and the next hops - 1 entries from the right are proxies.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // A proxy's X-Request-Id is kept when it looks like one; anything else a client writes is replaced.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 64 * 1024,
    frameworkErrors: frameworkError,
    // Shutdown (main.ts): idle keep-alive connections close at once; a request that arrives on a busy one while
    // draining is still answered (with Connection: close), not refused with a 503 it could not retry elsewhere.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
  });

  registerErrorHandler(app);
  // First of the hooks, so every answer carries them, refusals by the later hooks included.
  registerSecurityHeaders(app, protective);
  // Before anything reads a body or the database: a write on a nearly full disk is refused at once.
  if (diskGuard) registerDiskGuard(app, diskGuard);
  registerInputGuard(app);
  await app.register(swagger, swaggerOptions(config.publicOrigin));
  // The refusals every operation's error answers name (shared/openapi.ts), each once in the document.
  for (const schema of refusalSchemas) app.addSchema(schema);
  await app.register(cookie);
  registerOriginCheck(app, new Set(config.trustedOrigins));
  await app.register(formbody);
  // Behind a transaction-mode pooler the repositories' prepared statements go unnamed (db/client.ts).
  if (config.databasePooler === 'pgbouncer') behindTransactionPooler(db);
  // Per-route limits (@fastify/rate-limit) and the attempt counters, in a store every server shares.
  const limits = await registerLimits(app, { db, redisUrl: config.redisUrl });
  await app.register(staticCache, { answers });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  // Liveness: the process answers; no database round trip (a database outage is /readyz's to report, and
  // restarting the process would not mend it). /readyz and /metrics: modules/metrics.
  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  // Each pass of a loop takes its job's lock on the database: one server at a time runs a job.
  const jobs = new BackgroundJobs(db);
  if (limits.sweeper) jobs.add(limits.sweeper);
  const ports = {} as Ports;
  const catalogueChanged = () => {
    answers.clear();
    ports.images.forgetFreePages();
  };
  const ctx: ModuleContext = {
    config,
    db,
    log: app.log,
    jobs,
    ports,
    demoDrawer,
    catalogueChanged,
    diskGuard,
    memory,
  };
  for (const [name, register] of MODULES) {
    const port = await register(app, ctx);
    if (port) Object.assign(ports, { [name]: port });
  }
  app.decorate('ports', ports);
  app.decorate('jobs', jobs);
  // Requests in flight finish first (Fastify closes the server before onClose); a pass in progress is awaited.
  app.addHook('onClose', () => jobs.stop());
  return app;
}
