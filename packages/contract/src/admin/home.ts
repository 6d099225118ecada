import { type Static, Type } from 'typebox';
import { ShowcaseType } from '../catalog.ts';
import { AdminId, adminRoute, Binary, FormText, IdParams, Instant, Nullable } from './common.ts';

export const MAX_SECTION_BOOKS = 100;
export const MAX_HOT_WORDS = 30;
export const MAX_ADS = 20;

export const SectionBook = Type.Object({ bookId: Type.Integer(), title: Type.String() });
export type SectionBook = Static<typeof SectionBook>;
export const Section = Type.Object({ type: ShowcaseType, books: Type.Array(SectionBook) });
export type Section = Static<typeof Section>;

/** The spec's four jumps of a carousel ad: a link here (-1) or in a new window (-2), a book (2), the recharge centre (3). */
export const JUMP_TYPES = [-1, -2, 2, 3] as const;
export type JumpType = (typeof JUMP_TYPES)[number];
export const JumpTypeSchema = Type.Union([
  Type.Literal(-1),
  Type.Literal(-2),
  Type.Literal(2),
  Type.Literal(3),
]);

export const Ad = Type.Object({
  id: Type.Integer(),
  jumpType: JumpTypeSchema,
  bizId: Nullable(Type.Integer()),
  url: Type.String(),
  imgPath: Type.String(),
  sort: Type.Integer(),
  active: Type.Boolean(),
  startsAt: Nullable(Instant),
  endsAt: Nullable(Instant),
});
export type Ad = Static<typeof Ad>;

const When = Nullable(Type.String({ format: 'date-time' }));
export const AdBody = Type.Object(
  {
    jumpType: JumpTypeSchema,
    bizId: Nullable(AdminId),
    url: Type.String({ maxLength: 500 }),
    active: Type.Boolean(),
    startsAt: When,
    endsAt: When,
  },
  { additionalProperties: false },
);

/** The add form: the picture and an ad's fields as text (the server checks them by the same rules as AdBody). */
export const AdForm = Type.Object({
  image: Binary,
  jumpType: FormText,
  bizId: Type.Optional(FormText),
  url: Type.Optional(FormText),
  active: Type.Optional(FormText),
  startsAt: Type.Optional(FormText),
  endsAt: Type.Optional(FormText),
});

const Ads = Type.Object({ ads: Type.Array(Ad) });

/** A keyword readers searched, how often in the window, and how many of those searches found nothing. */
export const SearchTerm = Type.Object({
  keyword: Type.String(),
  searches: Type.Integer(),
  misses: Type.Integer(),
});
export type SearchTerm = Static<typeof SearchTerm>;
export const SEARCH_TERM_DAYS = [1, 7, 30] as const;

export const homeRoutes = {
  homeSections: adminRoute({
    method: 'GET',
    url: '/api/admin/home/sections',
    summary: '首页各栏目的书籍（按顺序）',
    data: Type.Array(Section),
  }),
  arrangeSection: adminRoute({
    method: 'POST',
    url: '/api/admin/home/sections/:type',
    summary: '设置栏目的书籍与顺序',
    params: Type.Object({ type: ShowcaseType }),
    body: Type.Object({ bookIds: Type.Array(AdminId, { maxItems: MAX_SECTION_BOOKS }) }),
    data: Section,
  }),
  hotWords: adminRoute({
    method: 'GET',
    url: '/api/admin/home/hot-words',
    summary: '热词（按顺序）',
    data: Type.Array(Type.String()),
  }),
  setHotWords: adminRoute({
    method: 'POST',
    url: '/api/admin/home/hot-words',
    summary: '设置热词与顺序',
    body: Type.Object({ words: Type.Array(Type.String({ maxLength: 20 }), { maxItems: MAX_HOT_WORDS }) }),
    data: Type.Array(Type.String()),
  }),
  searchTerms: adminRoute({
    method: 'GET',
    url: '/api/admin/home/search-terms',
    summary: '读者的搜索：最多的搜索词与没有结果的搜索词（近 days 天，中国时间）',
    querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })) }),
    data: Type.Object({ searched: Type.Array(SearchTerm), missed: Type.Array(SearchTerm) }),
  }),
  ads: adminRoute({ method: 'GET', url: '/api/admin/ads', summary: '首页轮播广告（按顺序）', data: Ads }),
  addAd: adminRoute({
    method: 'POST',
    url: '/api/admin/ads',
    summary: `添加广告（multipart：image 图片 ≤ 10 MB，jumpType、bizId、url、active、startsAt、endsAt；最多 ${MAX_ADS} 个）`,
    multipart: AdForm,
    data: Type.Object({ ad: Ad }),
  }),
  arrangeAds: adminRoute({
    method: 'POST',
    url: '/api/admin/ads/order',
    summary: '广告顺序（全部广告的 id，先显示的在前）',
    body: Type.Object({ ids: Type.Array(AdminId, { maxItems: MAX_ADS }) }),
    data: Ads,
  }),
  editAd: adminRoute({
    method: 'POST',
    url: '/api/admin/ads/:id',
    summary: '修改广告',
    params: IdParams,
    body: Type.Partial(AdBody),
    refusals: [404],
    data: Type.Object({ ad: Ad }),
  }),
  deleteAd: adminRoute({
    method: 'POST',
    url: '/api/admin/ads/:id/delete',
    summary: '删除广告',
    params: IdParams,
    refusals: [404],
    data: Type.Null(),
  }),
} as const;
