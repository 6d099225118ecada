import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { RuntimeConfig } from '@yueman/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../shared/errors.ts';
import { appPolicy } from '../../shared/security-headers.ts';

/** `</` cannot end the inline script early, whatever an operator puts in a base URL. */
export const runtimeConfigScript = (config: RuntimeConfig) =>
  `<script>window.__APP_CONFIG__ = ${JSON.stringify(config).replaceAll('<', '\\u003c')}</script>`;

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
    /** The image host's answer to an image URL; false when the URL is not one. */
    serveImage: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
  },
) {
  const indexFile = path.join(opts.webDist, 'index.html');
  let indexHtml = NOT_BUILT;
  if (existsSync(indexFile)) {
    const built = await readFile(indexFile, 'utf8');
    indexHtml = built.replace('<head>', `<head>${runtimeConfigScript(opts.runtimeConfig)}`);
    await app.register(fastifyStatic, {
      root: opts.webDist,
      wildcard: false,
      index: false,
      globIgnore: ['index.html'],
      setHeaders(reply, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'Cache-Control',
          hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  const policy = appPolicy(indexHtml, opts.runtimeConfig);
  // The pay page's frame may come back to the app itself (the cashier returns there), so same-origin framing stays.
  const sendApp = (reply: FastifyReply) =>
    reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', policy)
      .header('X-Frame-Options', 'SAMEORIGIN')
      .type('text/html; charset=utf-8')
      .send(indexHtml);

  // WebP does not compress and index.html is small: these routes skip the compression hooks.
  app.get('/', { compress: false }, (_req, reply) => sendApp(reply));
  app.get('/*', { compress: false }, async (request, reply) => {
    if (await opts.serveImage(request, reply)) return reply;
    return sendApp(reply);
  });

  app.all('/api/*', async () => {
    throw notFound('接口不存在');
  });
}
