import { type Static, Type } from 'typebox';
import { adminRoute, ConsolePage, ConsolePageQuery, Instant, Nullable } from './common.ts';

const Address = Type.String({ maxLength: 300, pattern: '^(https?://\\S+)?$' });

/** A promotion branch's name and the service contacts its readers see (branch -2: the default). */
export const Branch = Type.Object({
  branchId: Type.Integer(),
  /** What operators call the branch (revenue per branch shows it); empty when not named. */
  name: Type.String(),
  appDownloadUrl: Type.String(),
  appDownloadHome: Type.String(),
  customerServiceEmail: Type.String(),
  customerServiceQq: Type.String(),
});
export type Branch = Static<typeof Branch>;

/** A reader's complaint (report); a page of a chapter when sent from the reader's menu. */
export const Complaint = Type.Object({
  id: Type.Integer(),
  userId: Nullable(Type.Integer()),
  visitorId: Type.String(),
  reason: Type.String(),
  content: Type.String(),
  contact: Type.String(),
  pageUrl: Type.String(),
  bookId: Nullable(Type.Integer()),
  chapterNumber: Nullable(Type.Integer()),
  pageNumber: Nullable(Type.Integer()),
  createdAt: Instant,
});
export type Complaint = Static<typeof Complaint>;

export const supportRoutes = {
  branches: adminRoute({
    method: 'GET',
    url: '/api/admin/branches',
    summary: '各推广渠道的客服信息',
    data: Type.Array(Branch),
  }),
  saveBranch: adminRoute({
    method: 'POST',
    url: '/api/admin/branches/:branchId',
    summary: '设置渠道的名称与客服信息（-2 为默认）',
    params: Type.Object({ branchId: Type.Integer({ minimum: -2, maximum: 2_147_483_647 }) }),
    body: Type.Object({
      // What operators call the branch (revenue per branch shows it); optional, kept when not sent.
      name: Type.Optional(Type.String({ maxLength: 30 })),
      appDownloadUrl: Address,
      appDownloadHome: Address,
      customerServiceEmail: Type.String({ maxLength: 100, pattern: '^([^\\s@]+@[^\\s@]+\\.[^\\s@]+)?$' }),
      customerServiceQq: Type.String({ maxLength: 20, pattern: '^([1-9][0-9]{4,14})?$' }),
    }),
    data: Branch,
  }),
  complaints: adminRoute({
    method: 'GET',
    url: '/api/admin/complaints',
    summary: '读者举报（新的在前）',
    querystring: Type.Object(ConsolePageQuery),
    data: ConsolePage(Complaint),
  }),
} as const;
