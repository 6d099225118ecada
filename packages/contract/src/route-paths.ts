// Each call's method, path and base, with no schema: what the browser needs at run time. routes.ts adds the schemas
// (the server validates with them, and both sides take their types from them); this file imports nothing, so the web
// bundle carries no TypeBox (the contract package is marked free of side effects, and unused modules drop out).
export const routePaths = {
  homeIndex: { method: 'GET', url: '/api/book/home/index', base: 'static' },
  category: { method: 'GET', url: '/api/book/category', base: 'static' },
  queryBooks: {
    method: ['GET', 'POST'],
    url: '/api/book/query/:publishStatus/:categoryId/:page',
    base: 'static',
  },
  updatedBooks: { method: 'GET', url: '/api/book/new/:page', base: 'static' },
  showcase: { method: 'GET', url: '/api/book/showcase/detail/:type/:page', base: 'static' },
  bookDetail: { method: 'GET', url: '/api/book/detail/:bookId', base: 'static' },
  chapterList: { method: 'POST', url: '/api/book/chapter/list', base: 'dynamic' },
  readChapter: { method: 'GET', url: '/api/book/read_chapter', base: 'dynamic' },
  initSearch: { method: 'GET', url: '/api/book/init_search', base: 'dynamic' },
  search: { method: 'POST', url: '/api/book/search', base: 'dynamic' },
  // Past the spec: titles suggested as the reader types (docs/api.md).
  suggest: { method: 'GET', url: '/api/book/suggest', base: 'dynamic' },
  register: { method: 'POST', url: '/api/user/register', base: 'dynamic' },
  userInfo: { method: 'GET', url: '/api/user/info', base: 'dynamic' },
  userFromMark: { method: 'POST', url: '/api/user/user_from_mark', base: 'dynamic' },
  login: { method: 'POST', url: '/api/user/login', base: 'dynamic', formFields: true },
  bindMobile: { method: 'POST', url: '/api/user/bind_mobile', base: 'dynamic', formFields: true },
  modifyPwd: { method: 'POST', url: '/api/user/modifyPwd', base: 'dynamic', formFields: true },
  findAccount: { method: 'POST', url: '/api/user/find_account', base: 'dynamic', formFields: true },
  buyChapter: { method: 'POST', url: '/api/book/chapter/buy', base: 'dynamic' },
  consumption: { method: 'GET', url: '/api/user/consumption', base: 'dynamic' },
  unlockChapter: { method: 'POST', url: '/api/book/chapter/unlock', base: 'dynamic' },
  tickets: { method: 'GET', url: '/api/user/tickets', base: 'dynamic' },
  recharge: { method: 'GET', url: '/api/user/recharge', base: 'dynamic' },
  lastPaidOrder: { method: 'GET', url: '/api/pay/last_paid_order', base: 'dynamic' },
  payApply: { method: 'GET', url: '/h5/pay/apply', base: 'dynamic' },
  payPay: { method: 'POST', url: '/api/pay/pay', base: 'dynamic' },
  commonInfo: { method: 'GET', url: '/api/common/info/v2/:branchId', base: 'static' },
  submitContact: { method: 'POST', url: '/api/user/submit_contact', base: 'dynamic' },
  report: { method: 'POST', url: '/api/support/report', base: 'dynamic' },
  // Past the spec (the reader issue): reading progress on the account, and the hand-off out of a chat app.
  saveProgress: { method: 'POST', url: '/api/user/reading_progress', base: 'dynamic' },
  readingProgress: { method: 'GET', url: '/api/user/reading_progress', base: 'dynamic' },
  handoff: { method: 'POST', url: '/api/user/handoff', base: 'dynamic' },
  redeemHandoff: { method: 'POST', url: '/api/user/handoff/redeem', base: 'dynamic' },
  // Past the spec: following a series (追更) and the release calendar (更新日历).
  follows: { method: 'GET', url: '/api/user/follows', base: 'dynamic' },
  saveFollows: { method: 'POST', url: '/api/user/follows', base: 'dynamic' },
  releaseCalendar: { method: 'GET', url: '/api/book/calendar', base: 'dynamic' },
} as const;
