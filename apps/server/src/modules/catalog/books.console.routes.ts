import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BOOK_TEXT_LIMITS } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../shared/envelope.ts';
import { consolePageQuery, consoleWindow } from '../../shared/pagination.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import type { ConsoleRepository } from './books.console.repository.ts';
import * as catalogue from './books.console.service.ts';

const tags = ['admin'];
const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Price = Type.Integer({ minimum: 0, maximum: 100_000 });
const Status = Type.Union([Type.Literal('finish'), Type.Literal('serialize')]);
const Text = (min: number, max: number) => Type.String({ minLength: min, maxLength: max, pattern: '\\S' });

/** The console's catalogue: books and chapters, read by every role, written by owners and editors. */
export async function consoleRoutes(
  app: FastifyInstance,
  deps: catalogue.ConsoleDeps & { repo: ConsoleRepository },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/admin/categories',
    { schema: { tags, summary: '分类' }, config: { operatorRoles: ANY_ROLE } },
    async () => ok(await deps.repo.categories()),
  );

  r.get(
    '/api/admin/books',
    {
      schema: {
        tags,
        summary: '书籍列表（服务器分页）',
        querystring: Type.Object({
          ...consolePageQuery,
          q: Type.Optional(Type.String({ maxLength: 50 })),
          categoryId: Type.Optional(Id),
          status: Type.Optional(Status),
        }),
      },
      config: { operatorRoles: ANY_ROLE },
    },
    async (req) => {
      const { page, size, q, categoryId, status } = req.query;
      const { rows, total } = await deps.repo.listBooks({
        q: q?.trim() || undefined,
        categoryId,
        status,
        ...consoleWindow({ page, size }),
      });
      return ok({
        page,
        size,
        total,
        list: rows.map((b) => ({ ...b, updatedAt: b.updatedAt.toISOString() })),
      });
    },
  );

  r.get(
    '/api/admin/books/:id',
    {
      schema: { tags, summary: '书籍与章节', params: Type.Object({ id: Id }) },
      config: { operatorRoles: ANY_ROLE },
    },
    async (req) => ok(await catalogue.bookWithChapters(deps, req.params.id)),
  );

  r.post(
    '/api/admin/books/:id',
    {
      schema: {
        tags,
        summary: '修改书籍，含上架/下架（version：打开时的版本）',
        params: Type.Object({ id: Id }),
        body: Type.Object({
          version: Type.String({ maxLength: 40 }),
          title: Type.Optional(Text(1, BOOK_TEXT_LIMITS.title)),
          author: Type.Optional(Text(1, BOOK_TEXT_LIMITS.author)),
          description: Type.Optional(Type.String({ maxLength: BOOK_TEXT_LIMITS.description })),
          categoryId: Type.Optional(Id),
          status: Type.Optional(Status),
          vipFree: Type.Optional(Type.Boolean()),
          published: Type.Optional(Type.Boolean()),
        }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const { version, ...changes } = req.body;
      const book = await catalogue.editBook(deps, {
        id: req.params.id,
        version,
        changes,
        editor: auditActorOf(req),
      });
      return ok(book, '已保存');
    },
  );

  r.post(
    '/api/admin/books/:id/delete',
    {
      schema: {
        tags,
        summary: '删除书籍（连同章节；有读者购买或消费过的书不能删除，可下架）',
        params: Type.Object({ id: Id }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      await catalogue.deleteBook(deps, { id: req.params.id, editor: auditActorOf(req) });
      return ok(null, '已删除');
    },
  );

  r.post(
    '/api/admin/books/:id/pricing',
    {
      schema: {
        tags,
        summary: '批量定价：前 N 章免费，其后每章 P 阅币',
        params: Type.Object({ id: Id }),
        body: Type.Object({ freeChapters: Type.Integer({ minimum: 0, maximum: 100_000 }), price: Price }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const book = await catalogue.priceBook(deps, {
        id: req.params.id,
        ...req.body,
        editor: auditActorOf(req),
      });
      return ok(book, '已保存');
    },
  );

  r.post(
    '/api/admin/books/:id/chapters/:number',
    {
      schema: {
        tags,
        summary: '修改章节标题、价格或发布时间（未来的时间：到时才对读者可见）',
        params: Type.Object({ id: Id, number: Id }),
        body: Type.Object(
          {
            title: Type.Optional(Text(1, BOOK_TEXT_LIMITS.chapterTitle)),
            price: Type.Optional(Price),
            publishAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
          },
          { minProperties: 1 },
        ),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const chapter = await catalogue.editChapter(deps, {
        bookId: req.params.id,
        number: req.params.number,
        ...req.body,
        editor: auditActorOf(req),
      });
      return ok(chapter, '已保存');
    },
  );
}
