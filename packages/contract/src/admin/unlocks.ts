import { type Static, Type } from 'typebox';
import { BranchId } from '../envelope.ts';
import { AdminId, adminRoute, ConsolePage, ConsolePageQuery, IdParams, Instant, Nullable } from './common.ts';

// The console's side of unlocking beyond coins: a book's unlock rules (wait-for-free, early access, bundle) and the
// reading tickets an operator grants a reader. The limits are the server's (it answers a Chinese 400 naming the
// field); the schema only keeps the numbers whole and small enough for the database.

const Whole = (max: number) => Type.Integer({ minimum: -1_000_000, maximum: max });

/** Wait-for-free as the console sets it: the wait, the rental a wait-free unlock lasts, new readers' extra chapters. */
export const WaitFreeRule = Type.Object({
  /** Minutes between two wait-free unlocks of the book (1 to 43200, thirty days). */
  waitMinutes: Whole(1_000_000),
  /** How long a wait-free unlock lasts, in hours (1 to 720). */
  rentalHours: Whole(1_000_000),
  /** Extra wait-free chapters a reader has on the first day (0 to 20). */
  newReaderExtra: Whole(1_000_000),
});
export type WaitFreeRule = Static<typeof WaitFreeRule>;

/** The rules' values, the same for the book's default and for a promotion branch's variant. */
const UnlockRuleValues = Type.Object({
  /** null: no wait-for-free. */
  waitFree: Nullable(WaitFreeRule),
  /** The newest N chapters stay for coins (or a presale ticket) only; 0 to 100. */
  earlyAccessChapters: Whole(1_000_000),
  /** Buying all remaining chapters at once costs this much less, in percent; 0 (no bundle) to 90. */
  bundlePercent: Whole(1_000_000),
});

// Null first: the server's validation coerces types, and would read null as branch 0 were the number tried first.
const VariantBranch = Type.Union([Type.Null(), BranchId]);

export const UnlockRulesInput = Type.Object({
  ...UnlockRuleValues.properties,
  /** null or left out: the book's default rules; else the variant for readers of this promotion branch. */
  branchId: Type.Optional(VariantBranch),
});
export type UnlockRulesInput = Static<typeof UnlockRulesInput>;

export const UnlockRules = Type.Object({
  bookId: Type.Integer(),
  /** null: the book's default rules; else the variant of this promotion branch. */
  branchId: Nullable(Type.Integer()),
  ...UnlockRuleValues.properties,
  /** The book's chapter count (the early-access chapters are the newest of these). */
  chapterCount: Type.Integer(),
  /**
   * When these rules were last saved; null: never set. A branch without a variant answers the default's values with
   * null here (its readers follow the default); the default never set means coins only.
   */
  updatedAt: Nullable(Instant),
  /** The promotion branches with a variant of the book's rules, in order. */
  branches: Type.Array(Type.Integer()),
});
export type UnlockRules = Static<typeof UnlockRules>;

export const TicketKind = Type.Union([Type.Literal('read'), Type.Literal('presale')]);
export type TicketKind = Static<typeof TicketKind>;

/** A reading ticket as the reader page lists it. */
export const ConsoleTicket = Type.Object({
  id: Type.Integer(),
  kind: TicketKind,
  /** null: the unlock it makes is permanent. */
  rentalHours: Nullable(Type.Integer()),
  /** null: any book; else the books it may be spent on, with their titles. */
  scope: Nullable(Type.Array(Type.Object({ bookId: Type.Integer(), title: Type.String() }))),
  source: Type.String(),
  reason: Type.String(),
  state: Type.Union([Type.Literal('usable'), Type.Literal('spent'), Type.Literal('expired')]),
  expiresAt: Instant,
  spentAt: Nullable(Instant),
  createdAt: Instant,
});
export type ConsoleTicket = Static<typeof ConsoleTicket>;

export const TicketGrant = Type.Object({
  kind: TicketKind,
  count: Type.Integer(),
  expiresAt: Instant,
  /** The reader's usable tickets after the grant. */
  usable: Type.Integer(),
  /** True when this request had already been done: nothing was granted this time. */
  repeated: Type.Boolean(),
});
export type TicketGrant = Static<typeof TicketGrant>;

const UserParams = Type.Object({ userId: AdminId });

export const unlockConsoleRoutes = {
  bookUnlockRules: adminRoute({
    method: 'GET',
    url: '/api/admin/books/:id/unlock-rules',
    summary: '书籍的解锁规则：等就免费、抢先看、打包购买折扣（默认，或 branchId 推广渠道的专属规则）',
    params: IdParams,
    querystring: Type.Object({ branchId: Type.Optional(BranchId) }),
    refusals: [404],
    data: UnlockRules,
  }),
  setBookUnlockRules: adminRoute({
    method: 'POST',
    url: '/api/admin/books/:id/unlock-rules',
    summary:
      '设置书籍的解锁规则（整体替换）：等就免费（等待分钟、租借小时、新读者首日额外话数）、抢先看话数、打包折扣；branchId 为推广渠道的专属规则（空为默认）；记入操作日志',
    params: IdParams,
    body: UnlockRulesInput,
    refusals: [404],
    data: UnlockRules,
  }),
  deleteBookUnlockRules: adminRoute({
    method: 'POST',
    url: '/api/admin/books/:id/unlock-rules/delete',
    summary: '删除推广渠道的专属解锁规则（该渠道读者回到默认规则）；记入操作日志；答默认规则',
    params: IdParams,
    body: Type.Object({ branchId: BranchId }),
    refusals: [404],
    data: UnlockRules,
  }),
  readerTickets: adminRoute({
    method: 'GET',
    url: '/api/admin/readers/:userId/tickets',
    summary: '读者的阅读券（可用的在前，先到期的在前）',
    params: UserParams,
    querystring: Type.Object({ ...ConsolePageQuery }),
    refusals: [404],
    data: ConsolePage(ConsoleTicket),
  }),
  grantReaderTickets: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/tickets',
    summary:
      '发放阅读券：种类、张数（1–100）、有效天数、适用范围（全部书籍或指定书籍）、租借小时（空为永久），须填原因；requestId 相同的重复提交只发放一次',
    params: UserParams,
    body: Type.Object({
      kind: TicketKind,
      count: Whole(1_000_000),
      expiresInDays: Whole(1_000_000),
      /** null: any book; else up to 20 existing book ids. */
      scope: Nullable(Type.Array(AdminId, { maxItems: 100 })),
      /** null, 0 or left out: the unlock a ticket makes is permanent; else it lasts this many hours (1 to 720). */
      rentalHours: Type.Optional(Nullable(Whole(1_000_000))),
      reason: Type.String({ maxLength: 200 }),
      requestId: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    }),
    refusals: [404, 409],
    data: TicketGrant,
  }),
} as const;
