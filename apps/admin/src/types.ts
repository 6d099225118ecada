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
