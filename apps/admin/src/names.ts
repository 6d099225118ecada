// What the console calls the contract's values (the types are the contract's: @yueman/contract/admin).
import type { ShowcaseType } from '@yueman/contract';
import type {
  BookStatus,
  ImportOutcome,
  JumpType,
  OrderState,
  Purpose,
  RefundState,
  Role,
} from '@yueman/contract/admin';

export { ROLES } from '@yueman/contract/admin';

export const ROLE_NAMES: Record<Role, string> = {
  owner: '所有者',
  editor: '编辑',
  finance: '财务',
  support: '客服',
};

export const STATUS_NAMES: Record<BookStatus, string> = { serialize: '连载中', finish: '已完结' };

export const OUTCOME_NAMES: Record<ImportOutcome, string> = {
  added: '新增',
  unchanged: '未变',
  replaced: '已替换',
  planned: '将导入',
};

/** The home sections as the reader app titles them (apps/web home page and 'more' lists). */
export const SECTION_NAMES: Record<ShowcaseType, string> = {
  e_recommend: '推荐（主编推荐）',
  new: '新书',
  hot: '人气排行',
  kkbg: '大咖',
  new_on: '新书速递',
};

export const JUMP_NAMES: Record<JumpType, string> = {
  [-1]: '本窗口打开链接',
  [-2]: '新窗口打开链接',
  2: '书籍详情',
  3: '充值中心',
};

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

export const PURPOSE_NAMES: Record<Purpose, string> = { coin: '阅币', vip: 'VIP' };

export const REFUND_STATE_NAMES: Record<RefundState, string> = {
  processing: '处理中',
  success: '成功',
  failed: '失败',
};

/** A ledger transfer's kind as the reader page's 阅币流水 shows it. */
export const TRANSFER_KIND_NAMES: Record<string, string> = {
  recharge: '充值',
  bonus: '充值赠送',
  purchase: '购买章节',
  grant: '客服补发',
  revoke: '客服扣回',
};

/** What the readers' search box matched. */
export const READER_MATCH_NAMES: Record<string, string> = {
  userId: '用户 ID',
  account: '账号',
  mobile: '手机号',
  visitorId: '访客 ID',
};

/** The ledger's accounts as an operator reads them: the system's by what they are for, a reader's by its id. */
const ACCOUNT_NAMES: Record<string, string> = {
  'system:payments': '充值入账',
  'system:bonus': '充值赠送',
  'system:sales': '章节销售',
  'system:adjustments': '运营调整',
};
export const accountName = (code: string) => {
  if (code === '') return '-';
  const reader = /^user:(\d+)$/.exec(code);
  return reader ? `读者 ${reader[1]}` : (ACCOUNT_NAMES[code] ?? code);
};
