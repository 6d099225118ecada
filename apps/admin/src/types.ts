// The console calls' answers (docs/api.md section 9; the server's routes under apps/server/src/modules/*/ are the
// exact shapes). Only what the console reads is typed.

export type Role = 'owner' | 'editor' | 'finance' | 'support';
export const ROLES: readonly Role[] = ['owner', 'editor', 'finance', 'support'];
export const ROLE_NAMES: Record<Role, string> = {
  owner: '所有者',
  editor: '编辑',
  finance: '财务',
  support: '客服',
};

export interface Operator {
  id: number;
  name: string;
  role: Role;
  disabled: boolean;
  createdAt: string;
}

/** A page of a console table: the server pages (`page` from 1, `size` rows). */
export interface Page<T> {
  page: number;
  size: number;
  /** Every matching row; the audit log does not count its rows (then the table guesses from the page). */
  total?: number;
  list: T[];
}

export interface Category {
  id: number;
  name: string;
}

export type BookStatus = 'serialize' | 'finish';
export const STATUS_NAMES: Record<BookStatus, string> = { serialize: '连载中', finish: '已完结' };

export interface BookRow {
  id: number;
  title: string;
  author: string;
  categoryId: number;
  category: string;
  publishStatus: BookStatus;
  vipFree: boolean;
  published: boolean;
  chapterCount: number;
  readCount: number;
  updatedAt: string;
  cover: string;
}

export interface Chapter {
  id: number;
  number: number;
  title: string;
  price: number;
  pages: number;
  publishAt: string | null;
  createdAt: string;
}

export interface Book {
  id: number;
  title: string;
  author: string;
  description: string;
  categoryId: number;
  status: BookStatus;
  vipFree: boolean;
  published: boolean;
  chapterCount: number;
  readCount: number;
  version: string;
  cover: string;
}

export interface BookWithChapters extends Book {
  chapters: Chapter[];
}

export type ImportOutcome = 'added' | 'unchanged' | 'replaced' | 'planned';
export const OUTCOME_NAMES: Record<ImportOutcome, string> = {
  added: '新增',
  unchanged: '未变',
  replaced: '已替换',
  planned: '将导入',
};

export interface ImportJob {
  id: number;
  fileName: string;
  /** queued: waiting for its server (or for its server to come back); running: pages being imported. */
  state: 'queued' | 'running' | 'done' | 'failed';
  pagesDone: number;
  pagesTotal: number;
  message: string | null;
  bookId: number | null;
  title: string | null;
  dryRun: boolean;
  chapters: { number: number; title: string; pages: number; price: number; outcome: ImportOutcome }[];
  operatorName: string;
  createdAt: string;
  finishedAt: string | null;
}

export type SectionType = 'e_recommend' | 'new' | 'hot' | 'kkbg' | 'new_on';
/** The home sections as the reader app titles them (apps/web home page and 'more' lists). */
export const SECTION_NAMES: Record<SectionType, string> = {
  e_recommend: '推荐（主编推荐）',
  new: '新书',
  hot: '人气排行',
  kkbg: '大咖',
  new_on: '新书速递',
};

export interface SectionBook {
  bookId: number;
  title: string;
}

export interface Section {
  type: SectionType;
  books: SectionBook[];
}

export type JumpType = -1 | -2 | 2 | 3;
export const JUMP_NAMES: Record<JumpType, string> = {
  [-1]: '本窗口打开链接',
  [-2]: '新窗口打开链接',
  2: '书籍详情',
  3: '充值中心',
};

export interface Ad {
  id: number;
  jumpType: JumpType;
  bizId: number | null;
  url: string;
  imgPath: string;
  sort: number;
  active: boolean;
  startsAt: string | null;
  endsAt: string | null;
}

export interface Branch {
  branchId: number;
  /** What operators call the branch (revenue per branch shows it); empty when not named. */
  name: string;
  appDownloadUrl: string;
  appDownloadHome: string;
  customerServiceEmail: string;
  customerServiceQq: string;
}

export interface Complaint {
  id: number;
  userId: number | null;
  visitorId: string;
  reason: string;
  content: string;
  contact: string;
  pageUrl: string;
  createdAt: string;
}

export interface AuditRow {
  id: number;
  operatorId: number | null;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  at: string;
}

export type OrderState = 'created' | 'paid' | 'expired' | 'cancelled';
export const ORDER_STATE_NAMES: Record<OrderState, string> = {
  created: '待支付',
  paid: '已支付',
  expired: '已过期',
  cancelled: '已取消',
};
export const ORDER_STATE_COLORS: Record<OrderState, string> = {
  created: 'processing',
  paid: 'success',
  expired: 'default',
  cancelled: 'default',
};

export type Purpose = 'coin' | 'vip';
export const PURPOSE_NAMES: Record<Purpose, string> = { coin: '阅币', vip: 'VIP' };

/** A row of GET /api/admin/orders. Amounts in cents. */
export interface OrderRow {
  /** The order's id: the story's link for roles that see the number in part. */
  id: number;
  /** Whole for owners (who refund); `YM` + date, asterisks and the last four characters for other roles. */
  orderNo: string;
  userId: number;
  account: string;
  purpose: Purpose;
  channel: string;
  channelName: string;
  gateway: string;
  amountLevel: number;
  payAmount: number;
  itemCount: number;
  presentCount: number;
  state: OrderState;
  branchId: number;
  /** The branch's name in 渠道客服, empty when not named. */
  branchName: string;
  refundedAmount: number;
  createdAt: string;
  paidAt: string | null;
}

export interface PayChannelOption {
  code: string;
  name: string;
  active: boolean;
}

export interface OrderPage extends Page<OrderRow> {
  channels: PayChannelOption[];
}

export type RefundState = 'processing' | 'success' | 'failed';
export const REFUND_STATE_NAMES: Record<RefundState, string> = {
  processing: '处理中',
  success: '成功',
  failed: '失败',
};

export interface Refund {
  refundNo: string;
  amount: number;
  reason: string;
  state: RefundState;
  gatewayRefundNo: string | null;
  actor: string;
  createdAt: string;
}

export interface OrderEvent {
  id: number;
  at: string;
  fromStatus: OrderState | null;
  toStatus: OrderState;
  /** apply, notify, query (the reconciler), sweeper, refund, refund-notify, … */
  source: string;
  detail: string;
  /** What the gateway said (a notification, a query's or a refund's answer), without signatures. */
  payload: unknown;
}

export interface LedgerTransfer {
  transferId: string;
  kind: 'recharge' | 'bonus' | 'purchase';
  amount: number;
  memo: string;
  createdAt: string;
  /** Both sides: `user:{id}` or a system account (`system:payments`, `system:bonus`). */
  entries: { account: string; amount: number }[];
}

/** GET /api/admin/orders/{orderNo}: the whole story of an order. */
export interface OrderStory {
  order: Omit<OrderRow, 'userId' | 'account' | 'refundedAmount'> & {
    packId: number;
    packTitle: string;
    gatewayTradeNo: string | null;
    appType: string;
    fromDomain: string;
    traceId: string;
    clientIp: string;
    expiresAt: string;
    checkedAt: string | null;
  };
  user: { id: number; account: string; vipEnd: string | null };
  events: OrderEvent[];
  refunds: Refund[];
  ledger: LedgerTransfer[];
  refund: { refunded: number; processing: number; left: number; refusal: string | null };
}

export interface RevenueSums {
  paidCount: number;
  paidAmount: number;
  refundedAmount: number;
}

export interface RevenueRow {
  branchId: number;
  branchName: string;
  coin: RevenueSums;
  vip: RevenueSums;
  all: RevenueSums;
}

/** GET /api/admin/revenue: China dates from..to, both included. */
export interface Revenue {
  from: string;
  to: string;
  days: number;
  rows: RevenueRow[];
  total: Record<'coin' | 'vip' | 'all', RevenueSums>;
}

/** A reader as the console's 读者账号 shows them (GET /api/admin/readers/lookup). */
export interface Reader {
  userId: number;
  account: string;
  /** The bound mobile in part (`138****5678`), or null. */
  mobile: string | null;
  vipEnd: string | null;
  createdAt: string;
}

/** A reset's answer: the new password, shown once. */
export interface ReaderReset {
  userId: number;
  account: string;
  password: string;
}
