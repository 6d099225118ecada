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

export const PURPOSE_NAMES: Record<Purpose, string> = { coin: '阅币', vip: 'VIP', card: '月卡' };

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

/** The audit log's actions as an operator reads them (a code of no known name: by its object, never raw). */
export const AUDIT_ACTION_NAMES: Record<string, string> = {
  'book.edit': '修改书籍',
  'book.cover': '更换封面',
  'book.delete': '删除书籍',
  'book.import': '导入书籍',
  'book.pricing': '批量定价',
  'book.unlock-rules': '设置解锁规则',
  'book.unlock-rules.delete': '删除渠道专属解锁规则',
  'chapter.edit': '修改章节',
  'ad.add': '添加广告',
  'ad.edit': '修改广告',
  'ad.delete': '删除广告',
  'ad.order': '调整广告顺序',
  'home.section': '编辑首页栏目',
  'home.hot_words': '编辑热门搜索词',
  'branch.settings': '推广渠道设置',
  'pack.add': '添加充值套餐',
  'pack.edit': '修改充值套餐',
  'pay-channel.edit': '修改支付渠道',
  'order.refund': '退款',
  'order.refund.offline': '标记线下已退款',
  'reader.coins.grant': '补发阅币',
  'reader.coins.take': '扣回阅币',
  'reader.vip.grant': '赠送 VIP 天数',
  'reader.vip.shorten': '缩短 VIP 天数',
  'reader.password.reset': '重置读者密码',
  'reader.sign-out': '读者全部下线',
  'reader.block': '封禁读者',
  'reader.unblock': '解封读者',
  'reader.tickets.grant': '发放阅读券',
  'complaint.state': '投诉状态变更',
  'complaint.note': '投诉备注',
  'complaint.reply': '记录投诉回复',
  'campaign.add': '新建限免/折扣活动',
  'campaign.edit': '修改限免/折扣活动',
  'campaign.end': '结束限免/折扣活动',
  'operator.add': '添加操作员',
  'operator.update': '修改操作员',
  'operator.password': '重置操作员密码',
  'operator.login': '登录',
  'operator.login-failed': '登录失败',
  'operator.logout': '退出登录',
  'operator.refused': '无权限被拒绝',
};

/** The objects the audit log names (`book:65`), as an operator reads them. */
export const AUDIT_OBJECT_NAMES: Record<string, string> = {
  book: '书籍',
  chapter: '章节',
  ad: '广告',
  ads: '首页广告',
  showcase: '首页栏目',
  hot_words: '热门搜索词',
  branch: '推广渠道',
  pack: '充值套餐',
  'pay-channel': '支付渠道',
  order: '订单',
  user: '读者',
  operator: '操作员',
  complaint: '投诉',
  campaign: '限免/折扣活动',
};

export const auditActionName = (code: string) => {
  const known = AUDIT_ACTION_NAMES[code];
  if (known) return known;
  const object = AUDIT_OBJECT_NAMES[code.split('.')[0] ?? ''];
  return object ? `${object}操作` : '其他操作';
};

/** An audit entry's object: `book:65` → 书籍 65, `chapter:65/3` → 书籍 65 第 3 话, a refused call as 后台接口. */
export function auditObjectName(target: string) {
  const call = /^(GET|POST|PUT|PATCH|DELETE) (\S+)$/.exec(target);
  if (call) return `后台接口 ${call[2]}`;
  const chapter = /^chapter:(\d+)\/(\d+)$/.exec(target);
  if (chapter) return `书籍 ${chapter[1]} 第 ${chapter[2]} 话`;
  const [kind = '', ...rest] = target.split(':');
  const id = rest.join(':');
  const name = AUDIT_OBJECT_NAMES[kind];
  if (!name) return target;
  if (kind === 'branch' && id === '-2') return `${name} 默认`;
  if (kind === 'operator' && id === '?') return `${name}（用户名不存在）`;
  if (kind === 'showcase' && id in SECTION_NAMES) return `${name} ${SECTION_NAMES[id as ShowcaseType]}`;
  return id ? `${name} ${id}` : name;
}

/** The fields audit entries keep, by their Chinese names (a field of no known name shows as it is). */
export const AUDIT_FIELD_NAMES: Record<string, string> = {
  id: 'ID',
  title: '标题',
  author: '作者',
  description: '简介',
  aliases: '别名',
  categoryId: '分类 ID',
  status: '状态',
  vipFree: 'VIP 免费',
  published: '上架',
  cover: '封面',
  chapterCount: '章节数',
  readCount: '阅读数',
  chapters: '章节',
  created: '新建',
  number: '话',
  price: '价格（阅币）',
  publishAt: '定时发布',
  pages: '页数',
  outcome: '结果',
  reason: '原因',
  balance: '余额（阅币）',
  amount: '数量',
  days: '天数',
  vipEnd: 'VIP 到期',
  blocked: '已封禁',
  blockReason: '封禁原因',
  activeSessions: '登录中的设备',
  role: '角色',
  disabled: '停用',
  name: '名称',
  address: '来源地址',
  refundNo: '退款单号',
  coins: '阅币处理',
  kind: '方式',
  type: '类型',
  amountLevel: '价格（分）',
  itemCount: '阅币或天数',
  presentCount: '赠送阅币',
  configDesc: '说明',
  isDefault: '默认选中',
  isRecommend: '推荐',
  initiatorCode: '推广渠道',
  sort: '排序',
  active: '启用',
  firstPayBonus: '首充加赠',
  firstPayStartsAt: '首充开始',
  firstPayEndsAt: '首充结束',
  discountPercent: '折扣（%）',
  url: '链接',
  image: '图片',
  startsAt: '开始',
  endsAt: '结束',
  jumpType: '跳转方式',
  bookId: '书籍 ID',
};
