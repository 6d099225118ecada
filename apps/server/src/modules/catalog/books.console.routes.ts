import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminRoutes } from '@yueman/contract/admin';
import type { FastifyInstance } from 'fastify';
import { contractRoute } from '../../shared/contract-route.ts';
import { ok } from '../../shared/envelope.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import * as catalogue from './books.console.service.ts';

const readers = { config: { operatorRoles: ANY_ROLE } };
const writers = { config: { operatorRoles: CATALOGUE_WRITERS } };

/** The console's catalogue: books and chapters, read by every role, written by owners and editors. */
export async function booksConsoleRoutes(app: FastifyInstance, deps: catalogue.ConsoleDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...contractRoute(adminRoutes.categories, readers),
    handler: async () => ok(await catalogue.categories(deps)),
  });

  r.route({
    ...contractRoute(adminRoutes.books, readers),
    handler: async (req) => ok(await catalogue.listBooks(deps, req.query)),
  });

  r.route({
    ...contractRoute(adminRoutes.book, readers),
    handler: async (req) => ok(await catalogue.bookWithChapters(deps, req.params.id)),
  });

  r.route({
    ...contractRoute(adminRoutes.editBook, writers),
    handler: async (req) => {
      const { version, ...changes } = req.body;
      const book = await catalogue.editBook(deps, {
        id: req.params.id,
        version,
        changes,
        editor: auditActorOf(req),
      });
      return ok(book, '已保存');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.deleteBook, writers),
    handler: async (req) => {
      await catalogue.deleteBook(deps, { id: req.params.id, editor: auditActorOf(req) });
      return ok(null, '已删除');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.priceBook, writers),
    handler: async (req) => {
      const book = await catalogue.priceBook(deps, {
        id: req.params.id,
        ...req.body,
        editor: auditActorOf(req),
      });
      return ok(book, '已保存');
    },
  });

  r.route({
    ...contractRoute(adminRoutes.editChapter, writers),
    handler: async (req) => {
      const chapter = await catalogue.editChapter(deps, {
        bookId: req.params.id,
        number: req.params.number,
        ...req.body,
        editor: auditActorOf(req),
      });
      return ok(chapter, '已保存');
    },
  });
}
