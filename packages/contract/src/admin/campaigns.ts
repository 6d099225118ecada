// The console's campaigns (限免与折扣): a book, or chapters of it, free or at a discount between two instants (the
// console takes and shows them in China time), for every reader or for one promotion branch.
import { type Static, Type } from 'typebox';
import { BranchId } from '../envelope.ts';
import { AdminId, adminRoute, ConsolePage, ConsolePageQuery, Instant, Nullable } from './common.ts';

export const CampaignKind = Type.Union([Type.Literal('limited_free'), Type.Literal('discount')]);
export type CampaignKind = Static<typeof CampaignKind>;

export const ConsoleCampaign = Type.Object({
  id: Type.Integer(),
  kind: CampaignKind,
  title: Type.String(),
  bookId: Type.Integer(),
  bookTitle: Type.String(),
  /** null: every chapter of the book. */
  chapterIds: Nullable(Type.Array(Type.Integer())),
  /** null: every reader; else readers of this promotion branch only. */
  branchId: Nullable(Type.Integer()),
  /** discount only: the percent taken off the coin price (rounded down, at least 1 coin). */
  discountPercent: Nullable(Type.Integer()),
  /** The window [startsAt, endsAt). */
  startsAt: Instant,
  endsAt: Instant,
  state: Type.Union([Type.Literal('upcoming'), Type.Literal('live'), Type.Literal('ended')]),
  updatedAt: Instant,
});
export type ConsoleCampaign = Static<typeof ConsoleCampaign>;

/** A campaign as the console sends it (its kind is chosen when it is made and does not change). */
export const CampaignInput = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 40 }),
  bookId: AdminId,
  chapterIds: Nullable(Type.Array(AdminId, { minItems: 1, maxItems: 500 })),
  // null: every reader (Nullable keeps a null as null, and a branch 0 as 0, through the server's coercing validation).
  branchId: Nullable(BranchId),
  discountPercent: Nullable(Type.Integer({ minimum: 1, maximum: 90 })),
  startsAt: Instant,
  endsAt: Instant,
});
export type CampaignInput = Static<typeof CampaignInput>;

const CampaignParams = Type.Object({ id: AdminId });

export const campaignsRoutes = {
  campaigns: adminRoute({
    method: 'GET',
    url: '/api/admin/campaigns',
    summary: '限免与折扣活动：进行中和未开始的在前，再按开始时间从新到旧',
    querystring: Type.Object({ ...ConsolePageQuery, bookId: Type.Optional(AdminId) }),
    data: ConsolePage(ConsoleCampaign),
  }),
  addCampaign: adminRoute({
    method: 'POST',
    url: '/api/admin/campaigns',
    summary: '新建限免或折扣活动（北京时间的起止时间，全部读者或一个推广渠道）',
    body: Type.Object({ kind: CampaignKind, ...CampaignInput.properties }),
    refusals: [400],
    data: ConsoleCampaign,
  }),
  editCampaign: adminRoute({
    method: 'POST',
    url: '/api/admin/campaigns/:id',
    summary: '修改活动：名称、作品或章节、推广渠道、折扣、起止时间',
    params: CampaignParams,
    body: CampaignInput,
    refusals: [400, 404],
    data: ConsoleCampaign,
  }),
  endCampaign: adminRoute({
    method: 'POST',
    url: '/api/admin/campaigns/:id/end',
    summary: '立即结束活动（已结束的不变）',
    params: CampaignParams,
    refusals: [404],
    data: ConsoleCampaign,
  }),
};
