import { type Static, Type } from 'typebox';
import { adminRoute, ConsolePage, ConsolePageQuery, IdParams, Instant, Nullable } from './common.ts';

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

/** Where a complaint is: 新 (nobody has it), 处理中 (an operator has it), 已处理. */
export const ComplaintState = Type.Union([
  Type.Literal('new'),
  Type.Literal('handling'),
  Type.Literal('done'),
]);
export type ComplaintState = Static<typeof ComplaintState>;

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
  /** The reported book's title (null when none, or deleted since). */
  bookTitle: Nullable(Type.String()),
  /** Whether readers see the book now (null when none). */
  bookPublished: Nullable(Type.Boolean()),
  chapterNumber: Nullable(Type.Integer()),
  /** The reported chapter's publish time: set while readers do not see it (taken down or scheduled). */
  chapterPublishAt: Nullable(Instant),
  pageNumber: Nullable(Type.Integer()),
  createdAt: Instant,
  state: ComplaintState,
  /** The operator who last moved it (took it, or marked it handled); null while new. */
  handler: Nullable(Type.String()),
  stateAt: Nullable(Instant),
  notes: Type.Integer(),
});
export type Complaint = Static<typeof Complaint>;

/** An operator's note on a complaint; kind reply: a reply sent through the contact the reader left. */
export const ComplaintNote = Type.Object({
  id: Type.Integer(),
  operator: Type.String(),
  kind: Type.Union([Type.Literal('note'), Type.Literal('reply')]),
  text: Type.String(),
  createdAt: Instant,
});
export type ComplaintNote = Static<typeof ComplaintNote>;

export const ComplaintWithNotes = Type.Object({ complaint: Complaint, notes: Type.Array(ComplaintNote) });
export type ComplaintWithNotes = Static<typeof ComplaintWithNotes>;

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
    summary: '读者举报（新的在前；可按状态筛选）',
    querystring: Type.Object({ ...ConsolePageQuery, state: Type.Optional(ComplaintState) }),
    data: ConsolePage(Complaint),
  }),
  complaint: adminRoute({
    method: 'GET',
    url: '/api/admin/complaints/:id',
    summary: '一条举报与它的备注',
    params: IdParams,
    refusals: [404],
    data: ComplaintWithNotes,
  }),
  setComplaintState: adminRoute({
    method: 'POST',
    url: '/api/admin/complaints/:id/state',
    summary: '改变举报的状态（from：操作员看到的状态；已被他人改变时 409，并说明谁在处理）',
    params: IdParams,
    body: Type.Object({ from: ComplaintState, state: ComplaintState }),
    refusals: [404, 409],
    data: ComplaintWithNotes,
  }),
  addComplaintNote: adminRoute({
    method: 'POST',
    url: '/api/admin/complaints/:id/notes',
    summary: '给举报加备注（reply：已通过读者留下的联系方式回复）',
    params: IdParams,
    body: Type.Object({
      kind: Type.Union([Type.Literal('note'), Type.Literal('reply')]),
      text: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
    }),
    refusals: [404],
    data: ComplaintWithNotes,
  }),
} as const;
