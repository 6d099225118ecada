import { type Static, Type } from 'typebox';
import { AdminId, adminRoute, ConsolePage, ConsolePageQuery, Instant, Nullable } from './common.ts';

/** A reader as the console's 读者账号 shows them: no password, no hash. */
export const Reader = Type.Object({
  userId: Type.Integer(),
  account: Type.String(),
  /** The bound mobile in part (`138****5678`), or null. */
  mobile: Nullable(Type.String()),
  vipEnd: Nullable(Instant),
  createdAt: Instant,
});
export type Reader = Static<typeof Reader>;

/** A reset's answer: the new password, shown once. */
export const ReaderReset = Type.Object({
  userId: Type.Integer(),
  account: Type.String(),
  password: Type.String(),
});
export type ReaderReset = Static<typeof ReaderReset>;

export const readersRoutes = {
  resetReaderPassword: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/password',
    summary: '重置读者密码（须填原因，记入操作日志；新密码只显示这一次）',
    params: Type.Object({ userId: AdminId }),
    body: Type.Object({ reason: Type.String({ maxLength: 200 }) }),
    refusals: [404],
    data: ReaderReset,
  }),
} as const;

/**
 * What the one search box takes: an account name (`yd…`), a bound mobile, a user id or a visitor id. Anything
 * else (spaces inside, other characters, too long) is refused with 400 naming `q`.
 */
export const ReaderQuery = Type.String({ minLength: 1, maxLength: 64 });

/** A reader the search box found, and what their input matched. */
export const ReaderMatch = Type.Object({
  userId: Type.Integer(),
  account: Type.String(),
  mobile: Nullable(Type.String()),
  /** Which of the reader's names the input matched. */
  matched: Type.Union([
    Type.Literal('userId'),
    Type.Literal('account'),
    Type.Literal('mobile'),
    Type.Literal('visitorId'),
  ]),
  createdAt: Instant,
  blocked: Type.Boolean(),
});
export type ReaderMatch = Static<typeof ReaderMatch>;

/** The reader page's head: who they are, their coins and VIP, where they came from, and whether they are blocked. */
export const ReaderProfile = Type.Object({
  userId: Type.Integer(),
  account: Type.String(),
  /** In part (`138****5678`), or null. */
  mobile: Nullable(Type.String()),
  visitorId: Type.String(),
  vipEnd: Nullable(Instant),
  balance: Type.Integer(),
  branchId: Type.Integer(),
  /** The branch's name in 渠道客服, empty when not named. */
  branchName: Type.String(),
  /** The first visit mark of their visitor id (any branch), or null when none was reported. */
  firstVisitAt: Nullable(Instant),
  /** When a session of theirs last answered a call, to the hour; null when never since this was kept. */
  lastSeenAt: Nullable(Instant),
  createdAt: Instant,
  activeSessions: Type.Integer(),
  blocked: Nullable(Type.Object({ at: Instant, reason: Type.String() })),
});
export type ReaderProfile = Static<typeof ReaderProfile>;

export const ReaderPurchase = Type.Object({
  chapterId: Type.Integer(),
  bookId: Type.Integer(),
  bookTitle: Type.String(),
  chapterNumber: Type.Integer(),
  chapterTitle: Type.String(),
  /** Coins charged (0 when it was free for them). */
  price: Type.Integer(),
  createdAt: Instant,
});
export type ReaderPurchase = Static<typeof ReaderPurchase>;

/** A ledger transfer of the reader, from their side: `amount` signed (in positive, out negative). */
export const ReaderTransfer = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  amount: Type.Integer(),
  /** The other side: a system account (`system:payments`, `system:adjustments`, …). */
  counterparty: Type.String(),
  memo: Type.String(),
  createdAt: Instant,
});
export type ReaderTransfer = Static<typeof ReaderTransfer>;

/** A line of the reader's own 消费记录, as the reader app shows it. */
export const ReaderRecord = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  coins: Type.Integer(),
  title: Type.String(),
  payAmount: Type.Integer(),
  /** China time, 'YYYY-MM-DD HH:mm'. */
  createdAt: Type.String(),
});
export type ReaderRecord = Static<typeof ReaderRecord>;

/** A live session: no token, no hash, only its times. */
export const ReaderSession = Type.Object({
  createdAt: Instant,
  expiresAt: Instant,
});
export type ReaderSession = Static<typeof ReaderSession>;

/** An adjustment's required reason (kept in the audit log). */
const Reason = Type.String({ maxLength: 200 });
/** Made by the form when it opens: the same request sent twice changes things once. */
const RequestId = Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const UserParams = Type.Object({ userId: AdminId });
const PageQuery = Type.Object({ ...ConsolePageQuery });

export const CoinAdjustment = Type.Object({
  transferId: Type.String(),
  direction: Type.Union([Type.Literal('grant'), Type.Literal('take')]),
  amount: Type.Integer(),
  balance: Type.Integer(),
  /** True when this request had already been done: nothing moved this time. */
  repeated: Type.Boolean(),
});
export type CoinAdjustment = Static<typeof CoinAdjustment>;

export const VipAdjustment = Type.Object({
  days: Type.Integer(),
  vipEnd: Nullable(Instant),
  repeated: Type.Boolean(),
});
export type VipAdjustment = Static<typeof VipAdjustment>;

export const readerCareRoutes = {
  searchReaders: adminRoute({
    method: 'GET',
    url: '/api/admin/readers',
    summary: '查找读者：账号（yd…）、绑定手机号、用户 ID 或访客 ID，一个搜索框',
    querystring: Type.Object({ q: ReaderQuery }),
    data: Type.Object({ list: Type.Array(ReaderMatch) }),
  }),
  readerProfile: adminRoute({
    method: 'GET',
    url: '/api/admin/readers/:userId',
    summary: '读者详情：账号、手机（部分隐藏）、VIP、余额、推广渠道、首次访问、最近活跃、封禁',
    params: UserParams,
    refusals: [404],
    data: ReaderProfile,
  }),
  readerPurchases: adminRoute({
    method: 'GET',
    url: '/api/admin/readers/:userId/purchases',
    summary: '读者已购章节（新的在前）',
    params: UserParams,
    querystring: PageQuery,
    refusals: [404],
    data: ConsolePage(ReaderPurchase),
  }),
  readerRecords: adminRoute({
    method: 'GET',
    url: '/api/admin/readers/:userId/records',
    summary: '读者的消费记录（与读者在“消费记录”中看到的相同）',
    params: UserParams,
    querystring: PageQuery,
    refusals: [404],
    data: ConsolePage(ReaderRecord),
  }),
  readerTransfers: adminRoute({
    method: 'GET',
    url: '/api/admin/readers/:userId/transfers',
    summary: '读者的阅币流水（账本转账，新的在前）',
    params: UserParams,
    querystring: PageQuery,
    refusals: [404],
    data: ConsolePage(ReaderTransfer),
  }),
  readerSessions: adminRoute({
    method: 'GET',
    url: '/api/admin/readers/:userId/sessions',
    summary: '读者当前有效的登录',
    params: UserParams,
    querystring: PageQuery,
    refusals: [404],
    data: ConsolePage(ReaderSession),
  }),
  adjustReaderCoins: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/coins',
    summary:
      '调整读者阅币：补发（grant）或扣回（take），须填原因；requestId 相同的重复提交只执行一次；余额不会低于 0',
    params: UserParams,
    body: Type.Object({
      direction: Type.Union([Type.Literal('grant'), Type.Literal('take')]),
      amount: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
      reason: Reason,
      requestId: RequestId,
    }),
    refusals: [404, 409],
    data: CoinAdjustment,
  }),
  adjustReaderVip: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/vip',
    summary: '赠送（正数）或缩短（负数）读者的 VIP 天数，须填原因；requestId 相同的重复提交只执行一次',
    params: UserParams,
    body: Type.Object({
      days: Type.Integer({ minimum: -3650, maximum: 3650 }),
      reason: Reason,
      requestId: RequestId,
    }),
    refusals: [404, 409],
    data: VipAdjustment,
  }),
  signReaderOut: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/sign-out',
    summary: '让读者在所有设备上退出登录，须填原因',
    params: UserParams,
    body: Type.Object({ reason: Reason }),
    refusals: [404],
    data: Type.Object({ ended: Type.Integer() }),
  }),
  blockReader: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/block',
    summary: '封禁读者的充值和购买（仍可阅读免费和已购章节），须填原因',
    params: UserParams,
    body: Type.Object({ reason: Reason }),
    refusals: [404],
    data: ReaderProfile,
  }),
  unblockReader: adminRoute({
    method: 'POST',
    url: '/api/admin/readers/:userId/unblock',
    summary: '解除读者的封禁，须填原因',
    params: UserParams,
    body: Type.Object({ reason: Reason }),
    refusals: [404],
    data: ReaderProfile,
  }),
} as const;
