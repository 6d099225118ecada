import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
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
import { KEPT_IMAGE_ROUTE, registerMetrics } from './modules/metrics/index.ts';
import type { ModuleContext, Ports } from './modules/module-context.ts';
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
import { type FastRequest, KEEP_ALIVE_MS, type KeptCopy } from './shared/fast-path.ts';
import { type Front, installFront } from './shared/front.ts';
import { registerInputGuard } from './shared/input-guard.ts';
import { registerLimits } from './shared/limiter-store.ts';
import { MemoryAccount } from './shared/memory-account.ts';
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
    /**
     * A kept answer for a front process (fronts/owner.ts): a static call's, made now through the app if it is not
     * kept yet, or an image's; undefined for anything else (the front hands such a connection over).
     */
    keptCopy(req: FastRequest): Promise<KeptCopy | undefined>;
    /** Called after every change an operator makes that readers must see (main.ts tells the front processes). */
    onCatalogueChange(listener: () => void): void;
    /** A change readers must see was made outside a module's route (an import through the control socket). */
    catalogueChanged(): void;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

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
    headers: protective,
    maxBytes: config.staticCacheBytes - Math.floor(config.staticCacheBytes / 4),
  });
  const memory = new MemoryAccount(config.memoryBoundBytes);
  memory.add('static', { bytes: () => answers.bytes(), limitBytes: answers.maxBytes });
  let front: Front | undefined;
  const app = Fastify({
    logger,
    serverFactory: (handler) => {
      const server = createServer((req, res) => {
        // On connections node:http holds (the front handed them over): kept static answers and kept page images,
        // sent before Fastify from ready bytes (docs/decisions.md, "Static calls and images at the speed of a static
        // file server"). Their only cost to the metrics is one integer increment; `ports` is filled before any
        // request arrives.
        if (answers.answerRaw(req, res)) ports.metrics.fastPathAnswered(req.method, res.statusCode);
        else if (ports.images.answerRaw(req, res)) {
          ports.metrics.fastPathAnswered(req.method, res.statusCode, KEPT_IMAGE_ROUTE);
        } else handler(req, res);
      });
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      // Every connection is read first by the front (shared/front.ts), which answers kept static calls and kept
      // images straight off the socket and hands node:http the connection at the first request it does not answer.
      front = installFront(server, {
        answer: (req) => answers.fast(req) ?? ports.images.fast(req),
        hooks: { answered: (e) => ports.metrics.fastPathAnswered(e.method, e.status, e.route) },
        keepAliveMs: KEEP_ALIVE_MS,
      });
      return server;
    },
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
  // Shutdown, before the drain's grace (modules/metrics/drain.ts): the front's answers close their connections.
  app.addHook('preClose', (done) => {
    front?.stopKeepAlive();
    done();
  });
  // First of the hooks, so every answer carries them, refusals by the later hooks included.
  registerSecurityHeaders(app, protective);
  // Before anything reads a body or the database: a write on a nearly full disk is refused at once.
  if (diskGuard) registerDiskGuard(app, diskGuard);
  registerInputGuard(app);
  await app.register(swagger, {
    openapi: {
      info: { title: '阅漫 API', version: '1.0.0', description: 'See docs/api.md in the repository' },
    },
  });
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
  const catalogueListeners: (() => void)[] = [];
  const catalogueChanged = () => {
    answers.clear();
    ports.images.forgetFreePages();
    for (const listener of catalogueListeners) listener();
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
  app.decorate('onCatalogueChange', (listener: () => void) => void catalogueListeners.push(listener));
  app.decorate('catalogueChanged', catalogueChanged);
  app.decorate('keptCopy', async (req: FastRequest): Promise<KeptCopy | undefined> => {
    if (req.method !== 'GET') return undefined;
    if (!answers.isStaticUrl(req.url)) return ports.images.copyFor(req);
    if (!answers.lookup('GET', req.url)) {
      // The same for every reader: made without the asking reader's cookies or address.
      await app.inject({
        method: 'GET',
        url: req.url,
        headers: { 'accept-encoding': req.acceptEncoding ?? '' },
      });
    }
    return answers.copyFor(req);
  });
  // Shutdown: the front's idle connections close with node:http's; a busy one after its answer (Connection: close).
  app.addHook('preClose', (done) => {
    front?.drain();
    done();
  });
  // Requests in flight finish first (Fastify closes the server before onClose); a pass in progress is awaited.
  app.addHook('onClose', () => jobs.stop());
  return app;
}
