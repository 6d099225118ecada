import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ShowcaseType } from '@yueman/contract';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../shared/envelope.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import { type HomeConsole, MAX_HOT_WORDS, MAX_SECTION_BOOKS } from './home.console.service.ts';

const tags = ['admin'];

/** The console's home page: each section's books in order, and the hot words. */
export async function homeConsoleRoutes(app: FastifyInstance, home: HomeConsole) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/admin/home/sections',
    { schema: { tags, summary: '首页各栏目的书籍（按顺序）' }, config: { operatorRoles: ANY_ROLE } },
    async () => ok(await home.sections()),
  );

  r.post(
    '/api/admin/home/sections/:type',
    {
      schema: {
        tags,
        summary: '设置栏目的书籍与顺序',
        params: Type.Object({ type: ShowcaseType }),
        body: Type.Object({
          bookIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), {
            maxItems: MAX_SECTION_BOOKS,
          }),
        }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const saved = await home.arrangeSection({
        type: req.params.type,
        bookIds: req.body.bookIds,
        editor: auditActorOf(req),
      });
      return ok(saved, '已保存');
    },
  );

  r.get(
    '/api/admin/home/hot-words',
    { schema: { tags, summary: '热词（按顺序）' }, config: { operatorRoles: ANY_ROLE } },
    async () => ok(await home.hotWords()),
  );

  r.post(
    '/api/admin/home/hot-words',
    {
      schema: {
        tags,
        summary: '设置热词与顺序',
        body: Type.Object({
          words: Type.Array(Type.String({ maxLength: 20 }), { maxItems: MAX_HOT_WORDS }),
        }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => ok(await home.setHotWords({ list: req.body.words, editor: auditActorOf(req) }), '已保存'),
  );
}
