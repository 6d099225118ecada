import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { RuntimeConfig } from '@yueman/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../shared/errors.ts';
import type { MemoryAccount } from '../../shared/memory-account.ts';
import { appPolicy } from '../../shared/security-headers.ts';
import { type FreeChapter, firstDataFor, LandingPages } from './first-data.ts';

/** `</` cannot end the inline script early, whatever an operator puts in a base URL. */
export const runtimeConfigScript = (config: RuntimeConfig) =>
  `<script>window.__APP_CONFIG__ = ${JSON.stringify(config).replaceAll('<', '\\u003c')}</script>`;

const SERVICE_WORKER = 'sw.js';
const MANIFEST = 'manifest.webmanifest';

/** A branch id as start-up reads it from `tgId` (an integer), or null. */
const branchOf = (tgId: unknown): number | null => {
  if (typeof tgId !== 'string' || !/^-?\d{1,10}$/.test(tgId)) return null;
  const n = Number(tgId);
  return Number.isSafeInteger(n) && n >= -2_147_483_648 && n <= 2_147_483_647 ? n : null;
};

/** The manifest with `tgId` in its start address (its `id` stays, so it is one app whatever the branch). */
export function manifestOnBranch(manifest: Record<string, unknown>, tgId: unknown): Record<string, unknown> {
  const branch = branchOf(tgId);
  if (branch === null || typeof manifest.start_url !== 'string') return manifest;
  const start = new URL(manifest.start_url, 'http://x');
  start.searchParams.set('tgId', String(branch));
  return { ...manifest, start_url: `${start.pathname}${start.search}` };
}

/**
 * The service worker's policy: its own fetches are connect-src (precache, navigations, calls, images), on this
 * origin and the bases the runtime config names; it loads nothing else.
 */
export function workerPolicy(bases: Pick<RuntimeConfig, 'staticApiBase' | 'dynamicApiBase' | 'imageBase'>) {
  const origins = [bases.staticApiBase, bases.dynamicApiBase, bases.imageBase]
    .filter(Boolean)
    .map((b) => new URL(b).origin);
  return `default-src 'none'; connect-src 'self'${[...new Set(origins)].map((o) => ` ${o}`).join('')}`;
}

const apiNotFound = () => notFound('接口不存在');
/** A path under /api: a call, never the web app's page. */
const isApiPath = (url: string) => /^\/api(?:\/|$|\?)/.test(url);

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>阅漫</title>
<p>The web app is not built yet: run <code>npm run build</code> (npm start does it for you).</p>`;

/**
 * One process serves the API, the images and the web app (docs/api.md section 1). Built files are served
 * as they are (hashed assets for a year); every other GET is an image URL or a route of the web app, which
 * answers index.html with the runtime config injected.
 */
export async function webRoutes(
  app: FastifyInstance,
  opts: {
    webDist: string;
    runtimeConfig: RuntimeConfig;
    /** Script origins beyond our own the pages may load (WeChat's JS-SDK when WeChat notices are on). */
    scriptOrigins?: readonly string[];
    /** The image host's answer to an image URL; false when the URL is not one. */
    serveImage: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
    /** A free chapter for the reader's page (first-data.ts); null for any other chapter. */
    freeChapter: FreeChapter;
    /** Bytes of landing pages kept (first-data.ts LandingPages), and where /metrics reads them. */
    landingPageBytes?: number;
    memory?: MemoryAccount;
  },
) {
  const indexFile = path.join(opts.webDist, 'index.html');
  const manifestFile = path.join(opts.webDist, MANIFEST);
  const worker = workerPolicy(opts.runtimeConfig);
  let indexHtml = NOT_BUILT;
  if (existsSync(indexFile)) {
    const built = await readFile(indexFile, 'utf8');
    indexHtml = built.replace('<head>', `<head>${runtimeConfigScript(opts.runtimeConfig)}`);
    await app.register(fastifyStatic, {
      root: opts.webDist,
      wildcard: false,
      index: false,
      // The build writes a .br and a .gz copy of each script and style sheet (apps/web/vite.config.ts): sent as they
      // are when the browser takes that encoding (with Vary: Accept-Encoding), so no request compresses them again.
      // The copies are not addresses of their own.
      preCompressed: true,
      globIgnore: ['index.html', MANIFEST, '**/*.br', '**/*.gz'],
      setHeaders(reply, filePath) {
        // The service worker is asked for again on every check for an update: a cache (a CDN) must never keep an
        // old one. Its policy is the one its own fetches run under (the default for files would stop them all).
        if (path.relative(opts.webDist, filePath) === SERVICE_WORKER) {
          reply.header('Cache-Control', 'no-cache').header('Content-Security-Policy', worker);
          return;
        }
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'Cache-Control',
          hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  // The web app manifest, with the reader's branch in its start address when the page names one (the app links
  // /manifest.webmanifest?tgId=N once it knows the branch), so an app installed from a promotion link starts on it.
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
    app.get(`/${MANIFEST}`, { schema: { hide: true } }, (req, reply) =>
      reply
        .header('Cache-Control', 'no-cache')
        .type('application/manifest+json; charset=utf-8')
        .send(manifestOnBranch(manifest, (req.query as Record<string, unknown>).tgId)),
    );
  }

  // The policy hashes the page's own inline scripts; the first-data block is data the browser does not run.
  const policy = appPolicy(indexHtml, opts.runtimeConfig, opts.scriptOrigins);
  // The pay page's frame may come back to the app itself (the cashier returns there), so same-origin framing stays.
  const pages = new LandingPages(indexHtml, opts.landingPageBytes);
  opts.memory?.add('landing', { bytes: () => pages.bytes(), limitBytes: pages.maxBytes });
  const sendApp = async (request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', policy)
      .header('X-Frame-Options', 'SAMEORIGIN')
      .type('text/html; charset=utf-8');
    const first = indexHtml === NOT_BUILT ? '' : await firstDataFor(app, opts.freeChapter, request.url);
    if (!first) return reply.send(indexHtml);
    // With its data the page is several times larger: sent compressed, made once per answer.
    const { body, encoding } = pages.encoded(request.url, first, request.headers['accept-encoding']);
    // Every copy of a data page varies by encoding, the plain one too (a cache must not hand it to all).
    reply.header('Vary', 'Accept-Encoding');
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.send(body);
  };

  // WebP does not compress and index.html is small: these routes skip the compression hooks. Pages and images, not
  // calls: the OpenAPI document leaves them out, as it does the catch-alls that answer unknown calls below.
  const page = { compress: false, schema: { hide: true } } as const;
  app.get('/', page, (request, reply) => sendApp(request, reply));
  app.get('/*', page, async (request, reply) => {
    // `/api` and `/api/` reach this route, not the one below (its wildcard needs a segment): calls, not pages.
    if (isApiPath(request.url)) throw apiNotFound();
    if (await opts.serveImage(request, reply)) return reply;
    return sendApp(request, reply);
  });

  app.all('/api/*', { schema: { hide: true } }, async () => {
    throw apiNotFound();
  });
  app.all('/api', { schema: { hide: true } }, async () => {
    throw apiNotFound();
  });
}
