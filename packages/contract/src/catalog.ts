import { type Static, Type } from 'typebox';
import { Id, Page } from './envelope.ts';
import { Unlock, UnlockOptions } from './wallet.ts';

/** Where a reader's right to read a chapter comes from. */
const UnlockSource = Unlock.properties.source;

export const PublishStatus = Type.String({ description: "'finish' 完结, 'serialize' 连载" });

export const Book = Type.Object({
  bookId: Type.Integer(),
  title: Type.String(),
  author: Type.String(),
  cover: Type.String(),
  horiCover: Type.String(),
  abstractContent: Type.String(),
  categoryName: Type.String(),
  recommend: Type.Integer(),
  readCount: Type.Integer(),
  publishStatus: PublishStatus,
  chapterCount: Type.Integer(),
  vipFree: Type.Boolean(),
});
export type Book = Static<typeof Book>;

export const ChapterItem = Type.Object({
  bookId: Type.Integer(),
  number: Type.Integer(),
  title: Type.String(),
  cover: Type.String(),
  price: Type.Integer({ description: '阅币；0 为免费' }),
  chapterId: Type.Integer(),
  alreadyBuy: Type.Boolean(),
  // What the chapter list marks, for a signed-in reader (chapter/list; absent in the book detail's static list).
  /** The reader's live right to read it beyond free: 'bought' (已购), 'wait_free' or 'ticket' (租借中 when unlockEndsAt). */
  unlockSource: Type.Optional(UnlockSource),
  /** When that right ends (epoch ms); null: never. */
  unlockEndsAt: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  /** One of the book's newest chapters only coins or a presale ticket open (抢先). */
  earlyAccess: Type.Optional(Type.Boolean()),
  /** A locked chapter wait-for-free may open: when the reader may (epoch ms; at or before now: 等免 ready). */
  waitFreeReadyAt: Type.Optional(Type.Integer()),
  /** A locked chapter one of the reader's usable tickets may open (券). */
  ticketable: Type.Optional(Type.Boolean()),
});
export type ChapterItem = Static<typeof ChapterItem>;

export const PicSize = Type.Object({ width: Type.Integer(), height: Type.Integer() });

export const ChapterInfo = Type.Object({
  bookId: Type.Integer(),
  bookName: Type.String(),
  /** Page image paths in reading order; empty when the chapter must be bought first (code 999). */
  bookPics: Type.Array(Type.String()),
  /** Size of each entry of bookPics, same order, so the reader reserves space before images load. */
  bookPicSizes: Type.Array(PicSize),
  picSplitCount: Type.Integer(),
  bookPrice: Type.Integer({ description: '本章价格（阅币）' }),
  bookVipFree: Type.Boolean(),
  chapterId: Type.Integer(),
  content: Type.String(),
  /** Previous chapter number, 0 on the first chapter. */
  lastNumber: Type.Integer(),
  /** Next chapter number, 0 on the last chapter. */
  nextNumber: Type.Integer(),
  number: Type.Integer(),
  price: Type.Integer(),
  title: Type.String(),
  totalNumber: Type.Integer(),
  /** On a readable chapter: what opens it and until when (epoch ms; null: no end). */
  unlock: Type.Optional(
    Type.Object({ source: UnlockSource, endsAt: Type.Union([Type.Integer(), Type.Null()]) }),
  ),
  /** On a locked one (code 999, signed in): what the reader may unlock it with now. */
  unlockOptions: Type.Optional(UnlockOptions),
});
export type ChapterInfo = Static<typeof ChapterInfo>;

export const Ad = Type.Object({
  jumpType: Type.Integer({ description: '-1 当前窗口打开 url, -2 新窗口打开 url, 2 打开书 bizId, 3 充值' }),
  bizId: Type.Integer(),
  url: Type.String(),
  imgPath: Type.String(),
});
export type Ad = Static<typeof Ad>;

export const ListResponse = Type.Object({
  adList: Type.Array(Ad),
  bookList: Type.Array(Book),
  totalPage: Type.Integer(),
  totalItem: Type.Integer(),
});
export type ListResponse = Static<typeof ListResponse>;

export const HomeIndex = Type.Object({
  adList: Type.Array(Ad),
  recommendList: Type.Array(Book),
  newOnList: Type.Array(Book),
  kkbgList: Type.Array(Book),
  hotList: Type.Array(Book),
  newList: Type.Array(Book),
  updateList: Type.Array(Book),
});
export type HomeIndex = Static<typeof HomeIndex>;

export const CategoryResponse = Type.Object({
  publishStatusList: Type.Array(Type.Object({ code: Type.String(), desc: Type.String() })),
  categoryList: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});
export type CategoryResponse = Static<typeof CategoryResponse>;

export const BookDetail = Type.Object({
  book: Book,
  chapterList: Type.Array(ChapterItem),
  lastChapter: Type.Union([ChapterItem, Type.Null()]),
  recommendList: Type.Array(Book),
  /** The book's wait-for-free (等就免费): the wait and the rental, in minutes and hours; null or absent: none. */
  waitFree: Type.Optional(
    Type.Union([Type.Object({ waitMinutes: Type.Integer(), rentalHours: Type.Integer() }), Type.Null()]),
  ),
});
export type BookDetail = Static<typeof BookDetail>;

/** The search call's data: the books whose title or author holds the keyword, most read first. */
export const SearchBooks = Type.Array(Book);
export type SearchBooks = Static<typeof SearchBooks>;

/** Characters to highlight: [start, end) in characters of the text (a character above the BMP counts as one). */
export const TextMark = Type.Object({ start: Type.Integer(), end: Type.Integer() });
export type TextMark = Static<typeof TextMark>;

/** Why a suggestion came up when the title alone does not show it. */
export const MatchReason = Type.Object({
  kind: Type.Union(
    [
      Type.Literal('alias'),
      Type.Literal('pinyin'),
      Type.Literal('author'),
      Type.Literal('description'),
      Type.Literal('typo'),
    ],
    { description: 'alias 别名，pinyin 拼音或首字母，author 作者，description 简介，typo 错一个字' },
  ),
  text: Type.String({ description: '匹配到的文字：别名、书名的拼音、作者' }),
  marks: Type.Array(TextMark),
});
export type MatchReason = Static<typeof MatchReason>;

/** A title suggested while the reader types, and why it matched. */
export const SearchSuggestion = Type.Object({
  bookId: Type.Integer(),
  title: Type.String(),
  cover: Type.String(),
  titleMarks: Type.Array(TextMark),
  reason: Type.Union([MatchReason, Type.Null()], { description: '书名已说明时为 null' }),
});
export type SearchSuggestion = Static<typeof SearchSuggestion>;

export const InitSearch = Type.Object({ hotWords: Type.Array(Type.String()) });
export type InitSearch = Static<typeof InitSearch>;

export const ShowcaseType = Type.Union([
  Type.Literal('e_recommend'),
  Type.Literal('new'),
  Type.Literal('hot'),
  Type.Literal('kkbg'),
  Type.Literal('new_on'),
]);
export type ShowcaseType = Static<typeof ShowcaseType>;

// Inputs, exactly as the spec's section 7 names them.
export const QueryParams = Type.Object({
  publishStatus: Type.Union([Type.Literal('all'), Type.Literal('finish'), Type.Literal('serialize')]),
  categoryId: Type.Integer({ minimum: 0, maximum: 2147483647, description: '0 为全部' }),
  page: Page,
});
export const PageParams = Type.Object({ page: Page });
export const ShowcaseParams = Type.Object({ type: ShowcaseType, page: Page });
export const BookIdParams = Type.Object({ bookId: Id });
export const ChapterListQuery = Type.Object({ bookId: Id });
export const ReadChapterQuery = Type.Object({
  bookId: Id,
  number: Type.Integer({ minimum: 1, maximum: 100000 }),
});
export const SuggestQuery = Type.Object({
  content: Type.String({ maxLength: 200, description: '输入框里的字，去掉首尾空格后 1 到 20 个字' }),
});
export const SearchQuery = Type.Object({
  content: Type.String({ maxLength: 200, description: '书名或作者，去掉首尾空格后 1 到 20 个字' }),
  page: Type.Optional(Page),
});
