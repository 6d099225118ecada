import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Id, routes } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import Value from 'typebox/value';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { badRequest } from '../../shared/errors.ts';
import { isVip } from '../wallet/index.ts';
import { releaseCalendar } from './calendar.service.ts';
import * as catalog from './catalog.service.ts';
import { type SearchCounted, search, suggest } from './search.service.ts';

/** bookId from a form body, checked like the query's. */
function bookIdFromForm(body: unknown): number {
  const raw = (body as { bookId?: unknown } | undefined)?.bookId;
  if (raw === undefined) throw badRequest('缺少参数 bookId');
  const bookId = Number(raw);
  if (!Value.Check(Id, bookId)) throw badRequest('表单字段 bookId 不正确');
  return bookId;
}

export async function catalogRoutes(app: FastifyInstance, deps: catalog.CatalogDeps, counted: SearchCounted) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const searchDeps = { ...deps, counted };

  r.route({ ...contractRoute(routes.homeIndex), handler: async () => ok(await catalog.homeIndex(deps)) });
  r.route({ ...contractRoute(routes.category), handler: async () => ok(await catalog.categoryList(deps)) });
  for (const method of routes.queryBooks.method) {
    r.route({
      ...contractRoute(routes.queryBooks, { method }),
      handler: async (req) => ok(await catalog.queryBooks(deps, req.params)),
    });
  }
  r.route({
    ...contractRoute(routes.updatedBooks),
    handler: async (req) => ok(await catalog.updatedBooks(deps, req.params)),
  });
  r.route({
    ...contractRoute(routes.showcase),
    handler: async (req) => ok(await catalog.showcaseDetail(deps, req.params)),
  });
  r.route({
    ...contractRoute(routes.bookDetail),
    handler: async (req) => ok(await catalog.bookDetail(deps, req.params)),
  });

  r.route({
    ...contractRoute(routes.chapterList),
    handler: async (req) => {
      const bookId = req.query.bookId ?? bookIdFromForm(req.body);
      return ok(await catalog.chapterList(deps, { bookId, userId: req.user?.userId ?? null }));
    },
  });

  r.route({
    ...contractRoute(routes.readChapter),
    handler: async (req) => {
      const reader = req.user
        ? {
            userId: req.user.userId,
            vipEndsAt: isVip(req.user) ? (req.user.vipEnd?.getTime() ?? null) : null,
          }
        : null;
      return ok(await catalog.readChapter(deps, { ...req.query, reader }));
    },
  });

  r.route({ ...contractRoute(routes.releaseCalendar), handler: async () => ok(await releaseCalendar(deps)) });

  r.route({ ...contractRoute(routes.initSearch), handler: async () => ok(await catalog.initSearch(deps)) });
  r.route({
    ...contractRoute(routes.search),
    handler: async (req) =>
      ok(await search(searchDeps, { content: req.query.content, page: req.query.page ?? 1 })),
  });
  r.route({
    ...contractRoute(routes.suggest),
    handler: async (req) => ok(await suggest(deps, { content: req.query.content })),
  });
}
