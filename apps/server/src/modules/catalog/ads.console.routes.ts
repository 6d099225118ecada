import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Database, Queryable } from '../../db/client.ts';
import { ok } from '../../shared/envelope.ts';
import { badRequest } from '../../shared/errors.ts';
import { receiveImage } from '../../shared/upload.ts';
import { ANY_ROLE, type AuditEntry, auditActorOf, CATALOGUE_WRITERS } from '../operators/index.ts';
import { type AdFields, createAdsConsole, JUMP_TYPES, MAX_ADS } from './ads.console.service.ts';
import { IMAGE_UPLOAD_BYTES, readUploadedImage } from './uploaded-image.ts';

const tags = ['admin'];
const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const When = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const AdBody = Type.Object(
  {
    jumpType: Type.Union(JUMP_TYPES.map((t) => Type.Literal(t))),
    bizId: Type.Union([Id, Type.Null()]),
    url: Type.String({ maxLength: 500 }),
    active: Type.Boolean(),
    startsAt: When,
    endsAt: When,
  },
  { additionalProperties: false },
);

/** An ad's fields from the upload form's text fields (the same rules as the JSON edit's schema). */
function adFieldsOf(fields: Record<string, string>): AdFields {
  const jumpType = Number(fields.jumpType);
  if (!(JUMP_TYPES as readonly number[]).includes(jumpType))
    throw badRequest('表单字段 jumpType 不正确', 'jumpType');
  const bizId = fields.bizId?.trim() ? Number(fields.bizId) : null;
  if (bizId !== null && !(Number.isInteger(bizId) && bizId >= 1 && bizId <= 2_147_483_647))
    throw badRequest('表单字段 bizId 不正确', 'bizId');
  const when = (name: 'startsAt' | 'endsAt') => {
    const raw = fields[name]?.trim();
    if (!raw) return null;
    if (Number.isNaN(Date.parse(raw)) || !/^\d{4}-\d{2}-\d{2}T/.test(raw))
      throw badRequest(`表单字段 ${name} 不正确`, name);
    return raw;
  };
  const url = fields.url?.trim() ?? '';
  if (url.length > 500) throw badRequest('表单字段 url 不正确', 'url');
  return {
    jumpType: jumpType as AdFields['jumpType'],
    bizId,
    url,
    active: fields.active === undefined ? true : ['true', 'on', '1'].includes(fields.active.toLowerCase()),
    startsAt: when('startsAt'),
    endsAt: when('endsAt'),
  };
}

/** The console's ad carousel: read by every role, changed by owners and editors. */
export async function adsConsoleRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    putOriginal(imagePath: string, bytes: Buffer): Promise<unknown>;
    audit(q: Queryable, entry: AuditEntry): Promise<unknown>;
    changed(): void;
  },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const carousel = createAdsConsole(deps.db, deps);

  r.get(
    '/api/admin/ads',
    { schema: { tags, summary: '首页轮播广告（按顺序）' }, config: { operatorRoles: ANY_ROLE } },
    async () => ok({ ads: await carousel.list() }),
  );

  r.post(
    '/api/admin/ads',
    {
      schema: {
        tags,
        summary: `添加广告（multipart：image 图片 ≤ 10 MB，jumpType、bizId、url、active、startsAt、endsAt；最多 ${MAX_ADS} 个）`,
        consumes: ['multipart/form-data'],
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const editor = auditActorOf(req);
      const upload = await receiveImage(req, { fileField: 'image', maxBytes: IMAGE_UPLOAD_BYTES });
      const fields = adFieldsOf(upload.fields);
      const image = await readUploadedImage(upload.file, 'image');
      return ok({ ad: await carousel.add({ image, fields, editor }) }, '已添加');
    },
  );

  r.post(
    '/api/admin/ads/order',
    {
      schema: {
        tags,
        summary: '广告顺序（全部广告的 id，先显示的在前）',
        body: Type.Object({ ids: Type.Array(Id, { maxItems: MAX_ADS }) }),
      },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) =>
      ok({ ads: await carousel.arrange({ ids: req.body.ids, editor: auditActorOf(req) }) }, '已保存'),
  );

  r.post(
    '/api/admin/ads/:id',
    {
      schema: { tags, summary: '修改广告', params: Type.Object({ id: Id }), body: Type.Partial(AdBody) },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      const changes = req.body as Partial<Static<typeof AdBody>>;
      return ok(
        { ad: await carousel.edit({ id: req.params.id, changes, editor: auditActorOf(req) }) },
        '已保存',
      );
    },
  );

  r.post(
    '/api/admin/ads/:id/delete',
    {
      schema: { tags, summary: '删除广告', params: Type.Object({ id: Id }) },
      config: { operatorRoles: CATALOGUE_WRITERS },
    },
    async (req) => {
      await carousel.remove({ id: req.params.id, editor: auditActorOf(req) });
      return ok(null, '已删除');
    },
  );
}
