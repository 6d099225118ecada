import { type Static, Type } from 'typebox';
import { BOOK_TEXT_LIMITS } from '../rules.ts';
import {
  AdminId,
  adminRoute,
  Binary,
  Bytes,
  ConsolePage,
  ConsolePageQuery,
  IdParams,
  Instant,
  Nullable,
} from './common.ts';

const Price = Type.Integer({ minimum: 0, maximum: 100_000 });
export const BookStatus = Type.Union([Type.Literal('finish'), Type.Literal('serialize')]);
export type BookStatus = Static<typeof BookStatus>;
const Text = (min: number, max: number) => Type.String({ minLength: min, maxLength: max, pattern: '\\S' });

/** ISO weekday: 1 Monday … 7 Sunday. */
export const Weekday = Type.Integer({ minimum: 1, maximum: 7 });

export const Category = Type.Object({ id: Type.Integer(), name: Type.String(), sort: Type.Integer() });
export type Category = Static<typeof Category>;

/** A row of the console's book table. */
export const BookRow = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  author: Type.String(),
  cover: Type.String(),
  categoryId: Type.Integer(),
  category: Type.String(),
  publishStatus: BookStatus,
  vipFree: Type.Boolean(),
  published: Type.Boolean(),
  chapterCount: Type.Integer(),
  readCount: Type.Integer(),
  updatedAt: Instant,
});
export type BookRow = Static<typeof BookRow>;

/** A book as the console edits it. */
export const Book = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  author: Type.String(),
  description: Type.String(),
  /** Other names readers search by (nicknames, former titles, the original title). */
  aliases: Type.Array(Type.String()),
  categoryId: Type.Integer(),
  status: BookStatus,
  vipFree: Type.Boolean(),
  published: Type.Boolean(),
  /** The weekdays it usually releases on (ISO: 1 Monday … 7 Sunday, China time): the readers' release calendar. */
  releaseDays: Type.Array(Weekday),
  /** The cover's image path (the console previews it through the image call). */
  cover: Type.String(),
  chapterCount: Type.Integer(),
  readCount: Type.Integer(),
  /** The version an edit must name: the book as this operator saw it. */
  version: Type.String(),
});
export type Book = Static<typeof Book>;

export const Chapter = Type.Object({
  id: Type.Integer(),
  number: Type.Integer(),
  title: Type.String(),
  price: Type.Integer(),
  pages: Type.Integer(),
  /** A time to come: readers see the chapter from then on. */
  publishAt: Nullable(Instant),
  createdAt: Instant,
  /** Readers who own the chapter (bought it, or were given it): changing its price is asked about first. */
  buyers: Type.Integer({ minimum: 0 }),
});
export type Chapter = Static<typeof Chapter>;

export const BookWithChapters = Type.Intersect([Book, Type.Object({ chapters: Type.Array(Chapter) })]);
export type BookWithChapters = Static<typeof BookWithChapters>;

/** Preview widths of a stored image. */
export const PREVIEW_WIDTHS = [180, 200, 500, 1000] as const;

export const booksRoutes = {
  categories: adminRoute({
    method: 'GET',
    url: '/api/admin/categories',
    summary: '分类',
    data: Type.Array(Category),
  }),
  books: adminRoute({
    method: 'GET',
    url: '/api/admin/books',
    summary: '书籍列表（服务器分页）',
    querystring: Type.Object({
      ...ConsolePageQuery,
      q: Type.Optional(Type.String({ maxLength: 50 })),
      categoryId: Type.Optional(AdminId),
      status: Type.Optional(BookStatus),
    }),
    data: ConsolePage(BookRow),
  }),
  book: adminRoute({
    method: 'GET',
    url: '/api/admin/books/:id',
    summary: '书籍与章节',
    params: IdParams,
    refusals: [404],
    data: BookWithChapters,
  }),
  editBook: adminRoute({
    method: 'POST',
    url: '/api/admin/books/:id',
    summary: '修改书籍，含上架/下架（version：打开时的版本）',
    params: IdParams,
    body: Type.Object({
      version: Type.String({ maxLength: 40 }),
      title: Type.Optional(Text(1, BOOK_TEXT_LIMITS.title)),
      author: Type.Optional(Text(1, BOOK_TEXT_LIMITS.author)),
      description: Type.Optional(Type.String({ maxLength: BOOK_TEXT_LIMITS.description })),
      aliases: Type.Optional(
        Type.Array(Type.String({ maxLength: BOOK_TEXT_LIMITS.alias, pattern: '^[^\\u0000-\\u001f]*\\S' }), {
          maxItems: BOOK_TEXT_LIMITS.aliases,
        }),
      ),
      categoryId: Type.Optional(AdminId),
      status: Type.Optional(BookStatus),
      vipFree: Type.Optional(Type.Boolean()),
      published: Type.Optional(Type.Boolean()),
      releaseDays: Type.Optional(Type.Array(Weekday, { maxItems: 7 })),
    }),
    refusals: [404, 409],
    data: Book,
  }),
  deleteBook: adminRoute({
    method: 'POST',
    url: '/api/admin/books/:id/delete',
    summary: '删除书籍（连同章节；有读者购买或消费过的书不能删除，可下架）',
    params: IdParams,
    refusals: [404, 409],
    data: Type.Null(),
  }),
  priceBook: adminRoute({
    method: 'POST',
    url: '/api/admin/books/:id/pricing',
    summary: '批量定价：前 N 章免费，其后每章 P 阅币',
    params: IdParams,
    body: Type.Object({ freeChapters: Type.Integer({ minimum: 0, maximum: 100_000 }), price: Price }),
    refusals: [404],
    data: BookWithChapters,
  }),
  editChapter: adminRoute({
    method: 'POST',
    url: '/api/admin/books/:id/chapters/:number',
    summary: '修改章节标题、价格或发布时间（未来的时间：到时才对读者可见）',
    params: Type.Object({ id: AdminId, number: AdminId }),
    body: Type.Object(
      {
        title: Type.Optional(Text(1, BOOK_TEXT_LIMITS.chapterTitle)),
        price: Type.Optional(Price),
        publishAt: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
      },
      { minProperties: 1 },
    ),
    refusals: [404],
    data: Type.Object({
      number: Type.Integer(),
      title: Type.String(),
      price: Type.Integer(),
      publishAt: Nullable(Instant),
    }),
  }),
  uploadCover: adminRoute({
    method: 'POST',
    url: '/api/admin/books/:id/cover',
    summary: '上传封面（multipart：image 为 PNG/JPEG/WebP，≤ 10 MB）',
    params: IdParams,
    multipart: Type.Object({ image: Binary }),
    refusals: [404],
    data: Type.Object({ book: Book }),
  }),
  image: adminRoute({
    method: 'GET',
    url: '/api/admin/image',
    summary: '图片预览（WebP，不加密；封面、广告、页面）',
    querystring: Type.Object({
      path: Type.String({ minLength: 1, maxLength: 512 }),
      w: Type.Union([Type.Literal(180), Type.Literal(200), Type.Literal(500), Type.Literal(1000)], {
        default: 200,
      }),
    }),
    produces: 'image/webp',
    refusals: [404],
    data: Bytes,
  }),
} as const;
