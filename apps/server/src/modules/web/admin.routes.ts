import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { consolePolicy } from '../../shared/security-headers.ts';

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>阅漫管理后台</title>
<p>The console is not built yet: run <code>npm run build</code> (npm start does it for you).</p>`;

/**
 * The operators' console (apps/admin, its own Vite build) at /admin/: its files as they are (hashed assets for a
 * year), every other path under /admin/ its index.html (client routing), with its own policy. Nothing here is
 * secret: the console's calls under /api/admin/ each check the operator's session and role.
 */
export async function adminRoutes(app: FastifyInstance, opts: { adminDist: string }) {
  const indexFile = path.join(opts.adminDist, 'index.html');
  const indexHtml = existsSync(indexFile) ? await readFile(indexFile, 'utf8') : NOT_BUILT;
  if (existsSync(indexFile)) {
    await app.register(fastifyStatic, {
      root: opts.adminDist,
      prefix: '/admin/',
      decorateReply: false,
      wildcard: false,
      index: false,
      globIgnore: ['index.html'],
      setHeaders(reply, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const sendConsole = (reply: FastifyReply) =>
    reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', consolePolicy)
      .header('X-Robots-Tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  // One wildcard for /admin, /admin/ and below (the router ignores a trailing slash, so a second route would clash).
  // Relative asset URLs need the slash: /admin goes to /admin/.
  // The console's pages, not calls: left out of the OpenAPI document.
  app.get('/admin*', { schema: { hide: true } }, (req, reply) => {
    const { pathname, search } = new URL(req.url, 'http://x');
    return pathname === '/admin' ? reply.redirect(`/admin/${search}`) : sendConsole(reply);
  });
}
