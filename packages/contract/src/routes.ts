// Every call of the web app, once: method, path, inputs and the envelope's data. The server registers its routes
// from these entries (apps/server/src/shared/contract-route.ts) and the web app's `call` takes its types from them,
// so neither side can drift from the other or guess a response type.
import { type Static, type TSchema, Type } from 'typebox';
import {
  BookDetail,
  BookIdParams,
  CategoryResponse,
  ChapterInfo,
  ChapterItem,
  ChapterListQuery,
  HomeIndex,
  InitSearch,
  ListResponse,
  PageParams,
  QueryParams,
  ReadChapterQuery,
  SearchBooks,
  SearchQuery,
  SearchSuggestion,
  ShowcaseParams,
  SuggestQuery,
} from './catalog.ts';
import { FollowList, ReleaseCalendar, SaveFollowsBody } from './follows.ts';
import { NoticeStatus, NoticeSubscribedBody, WechatConfig, WechatConfigBody } from './notices.ts';
import {
  LastPaidOrder,
  PayApplyApp,
  PayApplyQuery,
  PayPayQuery,
  RechargeQuery,
  RechargeResponse,
} from './payments.ts';
import { ProgressList, ProgressQuery, ReadingProgress, SaveProgressBody } from './reading.ts';
import { routePaths } from './route-paths.ts';
import { BranchParams, CommonInfo, Created, ReportBody, SubmitContactQuery } from './support.ts';
import {
  BindMobileQuery,
  FindAccountQuery,
  FoundAccount,
  HandoffLink,
  HandoffQuery,
  LoginQuery,
  ModifyPwdQuery,
  RedeemHandoffBody,
  RegisterQuery,
  UserFromMark,
  UserFromMarkQuery,
  UserInfo,
} from './users.ts';
import {
  BuyChapterQuery,
  BuyChapterResult,
  CardClaim,
  CardState,
  CheckinClaim,
  CheckinState,
  ConsumptionPage,
  ConsumptionQuery,
  TicketList,
  UnlockChapterBody,
  UnlockResult,
} from './wallet.ts';

export type Method = 'GET' | 'POST';

/** The areas of the API, each a tag of the OpenAPI document. */
export type Area = 'catalogue' | 'account' | 'money' | 'payments' | 'support' | 'admin';
/** A refusal a call documents beyond those of its kind (RouteSpec.refusals). */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;

export interface RouteSpec {
  method: Method | readonly Method[];
  /** Fastify's path syntax: `:name` is a path parameter. */
  url: string;
  /**
   * static: cacheable by a CDN, the same for every reader (spec section 7); dynamic: personal, never cached.
   * The web app sends each to its base (runtime config staticApiBase / dynamicApiBase).
   */
  base: 'static' | 'dynamic';
  /** The area it belongs to: the OpenAPI document's tag. */
  tag: Area;
  /** What it does, in Chinese: the OpenAPI document's summary. */
  summary: string;
  /**
   * The session it reads. none: it needs none (static calls never look; the console's login, the gateways'
   * notifications); optional: a reader's `sid` when the request has one, a visitor's answer without; required: 401
   * without one (a reader's `sid`, or on a console call an operator's `yadm`). Left out: none for static calls,
   * required for the console's, optional for the other dynamic calls.
   */
  session?: 'none' | 'optional' | 'required';
  /**
   * The refusals (HTTP status, the same number as the envelope's code) its handler or its limits answer, beyond
   * those every call of its kind can: 400 for the input it validates, 401 without a required session, 403 on a POST
   * from another site or a session the identity headers contradict, 413 and 415 for a body too large or of another
   * type (docs/api.md, "Envelope and codes"). Which roles reach a console call is the server's to say.
   */
  refusals?: readonly RefusalStatus[];
  /** A navigation the call may answer with a redirect (302) instead of its envelope: where it goes. */
  redirect?: string;
  params?: TSchema;
  querystring?: TSchema;
  /**
   * The query's fields may come in a form body instead (the body wins): the spec's clients put passwords in the
   * query, the web app sends them in the body so they stay out of URLs and logs.
   */
  formFields?: true;
  /** A body the server validates with this schema (form-encoded or JSON). */
  body?: TSchema;
  /**
   * A form body the client sends and the server reads by hand because it may be absent (chapter/list: the spec's
   * client sends bookId in the query and the body alike). Not validated as a body; typed for the web's calls.
   */
  formBody?: TSchema;
  /**
   * A multipart form (a file and text fields) the server reads by hand as the upload streams in (checked there,
   * naming the field). Not validated as a body; typed for the console's calls.
   */
  multipart?: TSchema;
  /** The HTTP status of a success when it is not 200 (202: accepted, the work goes on). */
  status?: 202;
  /** A success answered as these bytes, not an envelope (an image); `data` is their schema. */
  produces?: string;
  /** The envelope's data on success. */
  data: TSchema;
}

const route = <const R extends RouteSpec>(spec: R) => spec;

export const routes = {
  // catalog
  homeIndex: route({
    ...routePaths.homeIndex,
    tag: 'catalogue',
    summary: '首页',
    data: HomeIndex,
  }),
  category: route({
    ...routePaths.category,
    tag: 'catalogue',
    summary: '分类与连载状态',
    data: CategoryResponse,
  }),
  queryBooks: route({
    ...routePaths.queryBooks,
    tag: 'catalogue',
    summary: '按状态和分类查询',
    params: QueryParams,
    data: ListResponse,
  }),
  updatedBooks: route({
    ...routePaths.updatedBooks,
    tag: 'catalogue',
    summary: '最近更新',
    params: PageParams,
    data: ListResponse,
  }),
  showcase: route({
    ...routePaths.showcase,
    tag: 'catalogue',
    summary: '橱窗列表',
    params: ShowcaseParams,
    data: ListResponse,
  }),
  bookDetail: route({
    ...routePaths.bookDetail,
    tag: 'catalogue',
    summary: '书籍详情',
    params: BookIdParams,
    refusals: [404],
    data: BookDetail,
  }),
  // The spec sends bookId in the query and in the form body; either is accepted, and the body may be absent.
  chapterList: route({
    ...routePaths.chapterList,
    tag: 'catalogue',
    summary: '章节目录（含 alreadyBuy）',
    querystring: Type.Partial(ChapterListQuery),
    formBody: Type.Partial(ChapterListQuery),
    refusals: [404],
    data: Type.Array(ChapterItem),
  }),
  readChapter: route({
    ...routePaths.readChapter,
    tag: 'catalogue',
    summary: '阅读章节',
    querystring: ReadChapterQuery,
    refusals: [404],
    data: ChapterInfo,
  }),
  initSearch: route({
    ...routePaths.initSearch,
    tag: 'catalogue',
    summary: '热门搜索',
    data: InitSearch,
  }),
  search: route({
    ...routePaths.search,
    tag: 'catalogue',
    summary: '搜索：书名、别名、拼音与首字母、作者、简介',
    querystring: SearchQuery,
    data: SearchBooks,
  }),
  suggest: route({
    ...routePaths.suggest,
    tag: 'catalogue',
    summary: '边输入边提示：最多 8 本书，附匹配原因',
    querystring: SuggestQuery,
    data: Type.Array(SearchSuggestion),
  }),

  // users
  register: route({
    ...routePaths.register,
    tag: 'account',
    summary: '访客注册',
    querystring: RegisterQuery,
    refusals: [429],
    data: UserInfo,
  }),
  userInfo: route({
    ...routePaths.userInfo,
    tag: 'account',
    summary: '用户信息',
    session: 'required',
    data: UserInfo,
  }),
  userFromMark: route({
    ...routePaths.userFromMark,
    tag: 'account',
    summary: '首次访问上报',
    querystring: UserFromMarkQuery,
    data: UserFromMark,
  }),
  login: route({
    ...routePaths.login,
    tag: 'account',
    summary: '登录（账号或手机号）',
    querystring: LoginQuery,
    refusals: [429],
    data: UserInfo,
  }),
  bindMobile: route({
    ...routePaths.bindMobile,
    tag: 'account',
    summary: '绑定手机号',
    querystring: BindMobileQuery,
    session: 'required',
    refusals: [429],
    data: UserInfo,
  }),
  modifyPwd: route({
    ...routePaths.modifyPwd,
    tag: 'account',
    summary: '修改密码',
    querystring: ModifyPwdQuery,
    session: 'required',
    data: Type.Null(),
  }),
  findAccount: route({
    ...routePaths.findAccount,
    tag: 'account',
    summary: '按充值日期、商户订单号和支付金额找回账号',
    querystring: FindAccountQuery,
    refusals: [429],
    data: FoundAccount,
  }),

  // wallet
  buyChapter: route({
    ...routePaths.buyChapter,
    tag: 'money',
    summary: '购买章节（价格取自数据库；阅币不足时 code 999）',
    querystring: BuyChapterQuery,
    refusals: [404],
    data: BuyChapterResult,
  }),
  consumption: route({
    ...routePaths.consumption,
    tag: 'money',
    summary: '消费记录（充值、赠送、购买章节、开通VIP），每页 20 条，最新在前',
    querystring: ConsumptionQuery,
    session: 'required',
    data: ConsumptionPage,
  }),

  unlockChapter: route({
    ...routePaths.unlockChapter,
    tag: 'money',
    summary: '解锁章节：阅币、等就免费、阅读券、打包购买（不可用时 code 999 附可用方式）',
    body: UnlockChapterBody,
    session: 'required',
    refusals: [404],
    data: UnlockResult,
  }),
  tickets: route({
    ...routePaths.tickets,
    tag: 'money',
    summary: '我的阅读券：可用在前，先到期在前',
    session: 'required',
    data: TicketList,
  }),
  checkin: route({
    ...routePaths.checkin,
    tag: 'money',
    summary: '每日签到：本周期七天的奖励、今天是否已签到、连续签到天数（中国时间）',
    session: 'required',
    data: CheckinState,
  }),
  claimCheckin: route({
    ...routePaths.claimCheckin,
    tag: 'money',
    summary: '签到：每个中国时间日一次，发放当天奖励；重复签到不再发放（claimed 为 false）',
    session: 'required',
    data: CheckinClaim,
  }),
  card: route({
    ...routePaths.card,
    tag: 'money',
    summary: '月卡：是否生效、剩余天数（含今天）、今天是否已领取、今天可领的奖励（中国时间）',
    session: 'required',
    data: CardState,
  }),
  claimCard: route({
    ...routePaths.claimCard,
    tag: 'money',
    summary:
      '领取月卡每日奖励：月卡生效期间每个中国时间日一次；重复领取不再发放（claimed 为 false）；无生效月卡答 400',
    session: 'required',
    refusals: [400],
    data: CardClaim,
  }),

  // payments
  recharge: route({
    ...routePaths.recharge,
    tag: 'payments',
    summary: '充值中心',
    querystring: RechargeQuery,
    session: 'required',
    data: RechargeResponse,
  }),
  lastPaidOrder: route({
    ...routePaths.lastPaidOrder,
    tag: 'payments',
    summary: '最近一笔已支付订单（商户订单号）',
    session: 'required',
    data: LastPaidOrder,
  }),
  // Navigated to for web channels (302 to the cashier), fetched for app channels (this envelope).
  payApply: route({
    ...routePaths.payApply,
    tag: 'payments',
    summary: '发起支付：网页通道 302 到收银台，App 通道返回 JSON',
    querystring: PayApplyQuery,
    session: 'required',
    refusals: [429],
    redirect: '网页通道的收银台',
    data: PayApplyApp,
  }),
  // Spec: defined, use not shown. The same order as pay apply, always answered as JSON.
  payPay: route({
    ...routePaths.payPay,
    tag: 'payments',
    summary: '下单（按金额匹配套餐），返回收银台地址',
    querystring: PayPayQuery,
    session: 'required',
    refusals: [429],
    data: PayApplyApp,
  }),

  // support
  commonInfo: route({
    ...routePaths.commonInfo,
    tag: 'support',
    summary: '公共信息',
    params: BranchParams,
    data: CommonInfo,
  }),
  submitContact: route({
    ...routePaths.submitContact,
    tag: 'support',
    summary: '留下联系方式',
    querystring: SubmitContactQuery,
    data: Created,
  }),
  report: route({
    ...routePaths.report,
    tag: 'support',
    summary: '投诉举报',
    body: ReportBody,
    data: Created,
  }),
  // reading progress and hand-off (past the spec)
  saveProgress: route({
    ...routePaths.saveProgress,
    tag: 'account',
    summary: '保存阅读进度（按阅读时间，后写入者胜）',
    body: SaveProgressBody,
    session: 'required',
    refusals: [404, 429],
    data: ReadingProgress,
  }),
  readingProgress: route({
    ...routePaths.readingProgress,
    tag: 'account',
    summary: '阅读进度：一本书的，或最近的全部',
    querystring: ProgressQuery,
    session: 'required',
    data: ProgressList,
  }),
  follows: route({
    ...routePaths.follows,
    tag: 'account',
    summary: '追更：关注的书、看到的最新话、攒更设置与未读话数',
    session: 'required',
    data: FollowList,
  }),
  saveFollows: route({
    ...routePaths.saveFollows,
    tag: 'account',
    summary: '追更或取消、已看到的最新话、攒更（按顺序；不存在或未上架的书跳过）',
    body: SaveFollowsBody,
    session: 'required',
    refusals: [429],
    data: FollowList,
  }),
  releaseCalendar: route({
    ...routePaths.releaseCalendar,
    tag: 'catalogue',
    summary: '更新日历：今天起七天（北京时间），每天更新的书',
    data: ReleaseCalendar,
  }),
  handoff: route({
    ...routePaths.handoff,
    tag: 'account',
    summary: '一次性链接：在系统浏览器中继续当前账号（10 分钟，仅一次）',
    querystring: HandoffQuery,
    session: 'required',
    refusals: [429],
    data: HandoffLink,
  }),
  redeemHandoff: route({
    ...routePaths.redeemHandoff,
    tag: 'account',
    summary: '使用一次性链接：本浏览器登录该账号（链接失效则 400）',
    body: RedeemHandoffBody,
    refusals: [429],
    data: UserInfo,
  }),
  noticeStatus: route({
    ...routePaths.noticeStatus,
    tag: 'account',
    summary: '更新提醒：可订阅的模板与各自剩余的提醒次数（未开通则 404）',
    session: 'required',
    refusals: [404],
    data: NoticeStatus,
  }),
  noticeConfig: route({
    ...routePaths.noticeConfig,
    tag: 'account',
    summary: '更新提醒：为本站页面签名的 wx.config（未开通则 404）',
    body: WechatConfigBody,
    session: 'required',
    refusals: [404, 429],
    data: WechatConfig,
  }),
  noticeSubscribed: route({
    ...routePaths.noticeSubscribed,
    tag: 'account',
    summary: '更新提醒：页面报告的订阅结果（只作显示，次数以微信推送为准）',
    body: NoticeSubscribedBody,
    session: 'required',
    refusals: [404],
    data: NoticeStatus,
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

type StaticOf<T> = T extends TSchema ? Static<T> : undefined;
/** The envelope's data a route answers on success. */
export type DataOf<R extends RouteSpec> = Static<R['data']>;
export type ParamsOf<R extends RouteSpec> = StaticOf<R['params']>;
export type QueryOf<R extends RouteSpec> = StaticOf<R['querystring']>;
/** What a call sends in its body: the validated body, or the form body the server reads by hand. */
export type BodyOf<R extends RouteSpec> = R['body'] extends TSchema
  ? Static<R['body']>
  : StaticOf<R['formBody']>;
/** The fields of a multipart form the call sends. */
export type MultipartOf<R extends RouteSpec> = StaticOf<R['multipart']>;
