import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database, Queryable } from '../../db/client.ts';
import { branchSettings, reports } from '../../db/schema/index.ts';
import { ok } from '../../shared/envelope.ts';
import { consolePageQuery, consoleWindow } from '../../shared/pagination.ts';
import type { ModuleContext } from '../module-context.ts';
import { ANY_ROLE, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';

const tags = ['admin'];
/** Who reads the readers' complaints: owners and customer service. */
const COMPLAINT_READERS = ['owner', 'support'] as const;
const Branch = Type.Integer({ minimum: -2, maximum: 2_147_483_647 });
const Address = Type.String({ maxLength: 300, pattern: '^(https?://\\S+)?$' });

/**
 * The console's side of support: the service contacts each promotion branch shows (common info; branch -2 is the
 * default the others fall back to), and the readers' complaints.
 */
export async function supportConsoleRoutes(
  app: FastifyInstance,
  db: Database,
  ctx: Pick<ModuleContext, 'ports' | 'catalogueChanged'>,
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const settingsOf = async (branchId: number, q: Queryable = db) =>
    (await q.select().from(branchSettings).where(eq(branchSettings.branchId, branchId)).for('update'))[0];

  r.get(
    '/api/admin/branches',
    { schema: { tags, summary: '各推广渠道的客服信息' }, config: { operatorRoles: ANY_ROLE } },
    async () => ok(await db.select().from(branchSettings).orderBy(branchSettings.branchId)),
  );

  r.post(
    '/api/admin/branches/:branchId',
    {
      schema: {
        tags,
        summary: '设置渠道的名称与客服信息（-2 为默认）',
        params: Type.Object({ branchId: Branch }),
        body: Type.Object({
          // What operators call the branch (revenue per branch shows it); optional, kept when not sent.
          name: Type.Optional(Type.String({ maxLength: 30 })),
          appDownloadUrl: Address,
          appDownloadHome: Address,
          customerServiceEmail: Type.String({ maxLength: 100, pattern: '^([^\\s@]+@[^\\s@]+\\.[^\\s@]+)?$' }),
          customerServiceQq: Type.String({ maxLength: 20, pattern: '^([1-9][0-9]{4,14})?$' }),
        }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const { branchId } = req.params;
      const body = { ...req.body, ...(req.body.name === undefined ? {} : { name: req.body.name.trim() }) };
      const saved = await db.transaction(async (tx) => {
        const before = (await settingsOf(branchId, tx)) ?? null;
        const [after] = await tx
          .insert(branchSettings)
          .values({ branchId, ...body })
          .onConflictDoUpdate({ target: branchSettings.branchId, set: body })
          .returning();
        await ctx.ports.operators.audit(tx, {
          ...auditActorOf(req),
          action: 'branch.settings',
          target: `branch:${branchId}`,
          before,
          after,
        });
        return after;
      });
      ctx.catalogueChanged();
      return ok(saved, '已保存');
    },
  );

  r.get(
    '/api/admin/complaints',
    {
      schema: {
        tags,
        summary: '读者举报（新的在前）',
        querystring: Type.Object({
          ...consolePageQuery,
        }),
      },
      config: { operatorRoles: COMPLAINT_READERS },
    },
    async (req) => {
      const { page, size } = req.query;
      const { offset, limit } = consoleWindow(req.query);
      const rows = await db.select().from(reports).orderBy(desc(reports.id)).offset(offset).limit(limit);
      const total = await db.$count(reports);
      return ok({
        page,
        size,
        total,
        list: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
      });
    },
  );
}
