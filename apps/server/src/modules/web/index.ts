import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { adminRoutes } from './admin.routes.ts';
import { webRoutes } from './web.routes.ts';

/** The operators' console at /admin/, the built web app with its runtime config, and the catch-all that hands image URLs to the image host. */
export async function registerWeb(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const { config } = ctx;
  await adminRoutes(app, { adminDist: config.adminDist });
  await webRoutes(app, {
    webDist: config.webDist,
    serveImage: (request, reply) => ctx.ports.images.serve(request, reply),
    freeChapter: (bookId, number) => ctx.ports.catalog.freeChapter(bookId, number),
    // A quarter of STATIC_CACHE_MB; the kept static answers have the rest (app.ts).
    landingPageBytes: Math.floor(config.staticCacheBytes / 4),
    memory: ctx.memory,
    // WeChat's JS-SDK (jweixin), loaded by the page only inside WeChat, for 更新提醒's subscribe tag.
    scriptOrigins: config.notices ? ['https://res.wx.qq.com'] : [],
    runtimeConfig: {
      staticApiBase: config.staticApiBase,
      dynamicApiBase: config.dynamicApiBase,
      imageBase: config.imageBase,
      coverKey: config.coverKey.toString('hex'),
      ...(config.notices ? { wechatNotices: true } : {}),
    },
  });
}
