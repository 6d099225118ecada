import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { webRoutes } from './web.routes.ts';

/** The built web app with its runtime config, and the catch-all that hands image URLs to the image host. */
export async function registerWeb(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const { config } = ctx;
  await webRoutes(app, {
    webDist: config.webDist,
    serveImage: (request, reply) => ctx.ports.images.serve(request, reply),
    runtimeConfig: {
      staticApiBase: config.staticApiBase,
      dynamicApiBase: config.dynamicApiBase,
      imageBase: config.imageBase,
      coverKey: config.coverKey.toString('hex'),
    },
  });
}
