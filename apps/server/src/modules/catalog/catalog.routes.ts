import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BookDetail,
  BookIdParams,
  CategoryResponse,
  ChapterInfo,
  ChapterItem,
  ChapterListQuery,
  Envelope,
  HomeIndex,
  Id,
  InitSearch,
  ListResponse,
  PageParams,
  QueryParams,
  ReadChapterQuery,
  SearchQuery,
  ShowcaseParams,
} from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import Value from 'typebox/value';
import { ok } from '../../shared/envelope.ts';
import { badRequest } from '../../shared/errors.ts';
import { isVip } from '../users/sessions.ts';
import * as catalog from './catalog.service.ts';

/** bookId from a form body, checked like the query's. */
function bookIdFromForm(body: unknown): number {
  const raw = (body as { bookId?: unknown } | undefined)?.bookId;
  if (raw === undefined) throw badRequest('缺少参数 bookId');
  const bookId = Number(raw);
  if (!Value.Check(Id, bookId)) throw badRequest('表单字段 bookId 不正确');
  return bookId;
}

const staticCall = { config: { staticCache: true } } as const;
const tags = ['catalog'];

export async function catalogRoutes(app: FastifyInstance, deps: catalog.CatalogDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/book/home/index',
    { ...staticCall, schema: { tags, summary: '首页', response: { 200: Envelope(HomeIndex) } } },
    async () => ok(await catalog.homeIndex(deps)),
  );

  r.get(
    '/api/book/category',
    {
      ...staticCall,
      schema: { tags, summary: '分类与连载状态', response: { 200: Envelope(CategoryResponse) } },
    },
    async () => ok(await catalog.categoryList(deps)),
  );

  r.route({
    method: ['GET', 'POST'],
    url: '/api/book/query/:publishStatus/:categoryId/:page',
    ...staticCall,
    schema: {
      tags,
      summary: '按状态和分类查询',
      params: QueryParams,
      response: { 200: Envelope(ListResponse) },
    },
    handler: async (req) => ok(await catalog.queryBooks(deps, req.params)),
  });

  r.get(
    '/api/book/new/:page',
    {
      ...staticCall,
      schema: { tags, summary: '最近更新', params: PageParams, response: { 200: Envelope(ListResponse) } },
    },
    async (req) => ok(await catalog.updatedBooks(deps, req.params.page)),
  );

  r.get(
    '/api/book/showcase/detail/:type/:page',
    {
      ...staticCall,
      schema: {
        tags,
        summary: '橱窗列表',
        params: ShowcaseParams,
        response: { 200: Envelope(ListResponse) },
      },
    },
    async (req) => ok(await catalog.showcaseDetail(deps, req.params.type, req.params.page)),
  );

  r.get(
    '/api/book/detail/:bookId',
    {
      ...staticCall,
      schema: { tags, summary: '书籍详情', params: BookIdParams, response: { 200: Envelope(BookDetail) } },
    },
    async (req) => ok(await catalog.bookDetail(deps, req.params.bookId)),
  );

  // The spec sends bookId in the query and in the form body; either is accepted, and the body may be absent.
  r.post(
    '/api/book/chapter/list',
    {
      schema: {
        tags,
        summary: '章节目录（含 alreadyBuy）',
        querystring: Type.Partial(ChapterListQuery),
        response: { 200: Envelope(Type.Array(ChapterItem)) },
      },
    },
    async (req) => {
      const bookId = req.query.bookId ?? bookIdFromForm(req.body);
      return ok(await catalog.chapterList(deps, bookId, req.user?.userId ?? null));
    },
  );

  r.get(
    '/api/book/read_chapter',
    {
      schema: {
        tags,
        summary: '阅读章节',
        querystring: ReadChapterQuery,
        response: { 200: Envelope(ChapterInfo) },
      },
    },
    async (req) => {
      const reader = req.user ? { userId: req.user.userId, isVip: isVip(req.user) } : null;
      return ok(await catalog.readChapter(deps, req.query, reader));
    },
  );

  r.get(
    '/api/book/init_search',
    { schema: { tags, summary: '热门搜索', response: { 200: Envelope(InitSearch) } } },
    async () => ok(await catalog.initSearch(deps)),
  );

  r.post(
    '/api/book/search',
    {
      schema: {
        tags,
        summary: '按书名或作者搜索',
        querystring: SearchQuery,
        response: { 200: Envelope(Type.Array(Type.Any())) },
      },
    },
    async (req) => ok(await catalog.search(deps, req.query.content, req.query.page ?? 1)),
  );
}
