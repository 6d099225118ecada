import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createCatalogRepository } from './modules/catalog/catalog.repository.ts';
import { catalogRoutes } from './modules/catalog/catalog.routes.ts';
import { cachedFreePages, createImageHost, createPageGrants } from './modules/images/index.ts';
import { registerPayments } from './modules/payments/index.ts';
import { createSupportRepository } from './modules/support/support.repository.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import identity from './modules/users/identity.plugin.ts';
import { createSessionSweeper, type SessionSweeper } from './modules/users/session-sweeper.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createWalletRepository } from './modules/wallet/wallet.repository.ts';
import { walletRoutes } from './modules/wallet/wallet.routes.ts';
import { webRoutes } from './modules/web/web.routes.ts';
import { demoDrawer } from './seed/demo-drawer.ts';
import { frameworkError, registerErrorHandler } from './shared/error-handler.ts';
import { registerInputGuard } from './shared/input-guard.ts';
import { registerOriginCheck } from './shared/origin-check.ts';
import { registerSecurityHeaders, securityHeaders } from './shared/security-headers.ts';
import { StaticAnswers } from './shared/static-answers.ts';
import staticCache from './shared/static-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Removes expired sessions; main.ts starts it, tests call sweep(now). */
    sessionSweeper: SessionSweeper;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export interface AppDeps {
  config: Config;
  db: Database;
  logger?: FastifyServerOptions['logger'];
  /** How long a static answer is reused; 0 turns the cache off (tests that change data). */
  staticCacheMs?: number;
}

/** Builds the whole service: plugins, then modules, then one error handler. */
export async function buildApp({ config, db, logger = false, staticCacheMs = 5000 }: AppDeps) {
  const protective = securityHeaders({ https: config.publicOrigin.startsWith('https://') });
  const answers = new StaticAnswers({ ttlMs: staticCacheMs, headers: protective });
  const app = Fastify({
    logger,
    serverFactory: (handler) =>
      createServer((req, res) => {
        if (!answers.answerRaw(req, res)) handler(req, res);
      }),
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
  });

  registerErrorHandler(app);
  // First of the hooks, so every answer carries them, refusals by the later hooks included.
  registerSecurityHeaders(app, protective);
  registerInputGuard(app);
  await app.register(swagger, {
    openapi: {
      info: { title: '阅漫 API', version: '1.0.0', description: 'See docs/contract.md in the repository' },
    },
  });
  await app.register(cookie);
  registerOriginCheck(app, new Set(config.trustedOrigins));
  await app.register(formbody);
  await app.register(rateLimit, { global: false });
  await app.register(staticCache, { answers });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  const usersRepo = createUsersRepository(db);
  const sessionSweeper = createSessionSweeper({
    repo: usersRepo,
    log: app.log.child({ job: 'session-sweeper' }),
  });
  app.decorate('sessionSweeper', sessionSweeper);
  app.addHook('onClose', () => sessionSweeper.stop());
  await app.register(identity, {
    repo: usersRepo,
    secureCookies: config.publicOrigin.startsWith('https://'),
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/api/') && !request.routeOptions.config.staticCache)
      reply.header('Cache-Control', 'no-store');
  });

  app.get('/healthz', { schema: { hide: true } }, async () => {
    await db.execute('select 1');
    return { status: 'ok' };
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  const wallet = createWalletRepository(db);
  const catalogRepo = createCatalogRepository(db);
  const grants = createPageGrants(config.pageGrantKey);
  await catalogRoutes(app, {
    repo: catalogRepo,
    ownedChapters: wallet.ownedChapters,
    grantPage: (path) => grants.grant(path),
  });
  await usersRoutes(app, {
    repo: usersRepo,
    balanceOf: wallet.balanceOf,
    registerPerHour: config.registerPerHour,
    loginFailuresPerAccount: config.loginFailuresPerAccount,
    loginFailuresPerAddress: config.loginFailuresPerAddress,
    findAccountPerHour: config.findAccountPerHour,
    findAccountPerOrderPerHour: config.findAccountPerOrderPerHour,
  });
  await walletRoutes(app, { repo: wallet });
  await supportRoutes(app, createSupportRepository(db));
  await registerPayments(app, { config, db, usersRepo });

  const images = createImageHost({
    imageRoot: config.imageRoot,
    cacheDir: config.imageCacheDir,
    coverKey: config.coverKey,
    grants,
    isFreePage: cachedFreePages(catalogRepo.isFreePage),
    // Demo pictures are drawn only with the demo library on, and only for images the database knows.
    draw: config.demoLibrary ? demoDrawer(catalogRepo.isKnownImage) : undefined,
    log: app.log,
  });
  await webRoutes(app, {
    webDist: config.webDist,
    images,
    runtimeConfig: {
      staticApiBase: config.staticApiBase,
      dynamicApiBase: config.dynamicApiBase,
      imageBase: config.imageBase,
      coverKey: config.coverKey.toString('hex'),
    },
  });
  return app;
}
