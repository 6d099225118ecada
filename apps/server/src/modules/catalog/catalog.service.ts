import type {
  BookDetail,
  ChapterInfo,
  ChapterItem,
  HomeIndex,
  ListResponse,
  ShowcaseType,
  Unlock,
} from '@yueman/contract';
import { totalPages } from '@yueman/contract';
import { userUnknown } from '../../shared/errors.ts';
import { pageWindow } from '../../shared/pagination.ts';
import type { WalletPort } from '../wallet/index.ts';
import { bookNotFound, chapterNotBought, noMoreChapters } from './catalog.errors.ts';
import type { BookFilter, CatalogRepository } from './catalog.repository.ts';

/** The reader behind a dynamic call, as far as reading is concerned. */
export interface Reader {
  userId: number;
  /** When VIP ends (epoch ms), while the reader is VIP; null otherwise. */
  vipEndsAt: number | null;
}

/** The unlock ledger's read paths (the wallet domain answers them): what the reader holds, and may unlock with. */
export type UnlockReads = Pick<WalletPort, 'heldUnlock' | 'unlockOptions' | 'chapterMarks' | 'bookWaitFree'>;

export interface CatalogDeps {
  repo: CatalogRepository;
  unlocks: UnlockReads;
  /** Puts an expiring grant in front of a priced chapter's page path (the images module's port). */
  grantPage: (path: string) => string;
}

const HOME_SECTION_SIZE = 6;
const RECOMMEND_SIZE = 6;

async function listResponse(
  repo: CatalogRepository,
  found: Promise<{ rows: ListResponse['bookList']; total: number }>,
): Promise<ListResponse> {
  const [{ rows, total }, adList] = await Promise.all([found, repo.ads()]);
  return { adList, bookList: rows, totalItem: total, totalPage: totalPages(total) };
}

export async function homeIndex({ repo }: CatalogDeps): Promise<HomeIndex> {
  const [adList, heads, updateList] = await Promise.all([
    repo.ads(),
    repo.showcaseHeads(['e_recommend', 'new_on', 'kkbg', 'hot', 'new'], HOME_SECTION_SIZE),
    repo.latestUpdates(HOME_SECTION_SIZE),
  ]);
  const first = (type: ShowcaseType) => heads.get(type) ?? [];
  return {
    adList,
    recommendList: first('e_recommend'),
    newOnList: first('new_on'),
    kkbgList: first('kkbg'),
    hotList: first('hot'),
    newList: first('new'),
    updateList,
  };
}

export async function categoryList({ repo }: CatalogDeps) {
  return {
    publishStatusList: [
      { code: 'serialize', desc: '连载' },
      { code: 'finish', desc: '完结' },
    ],
    categoryList: await repo.categories(),
  };
}

export function queryBooks(
  { repo }: CatalogDeps,
  q: { publishStatus: 'all' | 'finish' | 'serialize'; categoryId: number; page: number },
) {
  const filter: BookFilter = {
    publishStatus: q.publishStatus === 'all' ? undefined : q.publishStatus,
    categoryId: q.categoryId === 0 ? undefined : q.categoryId,
  };
  const { limit, offset } = pageWindow(q.page);
  return listResponse(repo, repo.filteredBooks(filter, limit, offset));
}

export function updatedBooks({ repo }: CatalogDeps, { page }: { page: number }) {
  const { limit, offset } = pageWindow(page);
  return listResponse(repo, repo.recentlyUpdated(limit, offset));
}

export function showcaseDetail({ repo }: CatalogDeps, { type, page }: { type: ShowcaseType; page: number }) {
  const { limit, offset } = pageWindow(page);
  return listResponse(repo, repo.showcase(type, limit, offset));
}

export async function bookDetail(
  { repo, unlocks }: CatalogDeps,
  { bookId }: { bookId: number },
): Promise<BookDetail> {
  const [book, chapters, recommendList, waitFree] = await Promise.all([
    repo.book(bookId),
    repo.chapterList(bookId),
    repo.sameCategoryBooks(bookId, RECOMMEND_SIZE),
    unlocks.bookWaitFree(bookId),
  ]);
  if (!book) throw bookNotFound();
  // The detail is a static (shared, cached) answer: ownership is personal and comes from chapter/list, so every
  // alreadyBuy stays false here. The book's wait-for-free is the same for everyone.
  return { book, chapterList: chapters, lastChapter: chapters.at(-1) ?? null, recommendList, waitFree };
}

/**
 * The book's chapters with what the list marks for this reader (bought, rented, early access, wait-for-free,
 * ticket, the price under a live discount), all computed in one query; alreadyBuy is true while any right beyond
 * free is live.
 */
export async function chapterList(
  { repo, unlocks }: CatalogDeps,
  { bookId, userId }: { bookId: number; userId: number | null },
): Promise<ChapterItem[]> {
  const [book, chapters] = await Promise.all([repo.bookForReading(bookId), repo.chapterList(bookId)]);
  // An unpublished book's catalogue is gone with its detail; its buyers open their chapters by read_chapter.
  if (!book?.published) throw bookNotFound();
  if (chapters.length === 0) return chapters;
  const marks = new Map((await unlocks.chapterMarks(userId, bookId)).map((m) => [m.chapterId, m]));
  for (const c of chapters) {
    const m = marks.get(c.chapterId);
    if (!m) continue;
    // The price shown is the price charged now (a live discount for this reader), as read_chapter's refusal says.
    c.price = m.priceNow;
    if (m.unlockSource) {
      c.alreadyBuy = true;
      c.unlockSource = m.unlockSource;
      c.unlockEndsAt = m.unlockEndsAt;
    }
    if (m.earlyAccess) c.earlyAccess = true;
    if (m.waitFreeReadyAt !== null) c.waitFreeReadyAt = m.waitFreeReadyAt;
    if (m.ticketable) c.ticketable = true;
  }
  return chapters;
}

type ChapterLookup = NonNullable<Awaited<ReturnType<CatalogRepository['chapter']>>>;
type BookLookup = NonNullable<Awaited<ReturnType<CatalogRepository['bookForReading']>>>;

/** Book, chapter and its neighbours, as reading a chapter needs them. */
const lookUpChapter = (repo: CatalogRepository, bookId: number, number: number) =>
  Promise.all([repo.bookForReading(bookId), repo.chapter(bookId, number), repo.neighbours(bookId, number)]);

/** The chapter's info without its pages (the refusal of an unbought chapter carries this much). */
function chapterInfo(
  book: BookLookup,
  chapter: ChapterLookup,
  around: Awaited<ReturnType<CatalogRepository['neighbours']>>,
): ChapterInfo {
  return {
    bookId: chapter.bookId,
    bookName: book.title,
    bookPics: [],
    bookPicSizes: [],
    picSplitCount: book.picSplitCount,
    bookPrice: chapter.price,
    bookVipFree: book.vipFree,
    chapterId: chapter.chapterId,
    content: chapter.content,
    lastNumber: around.previous,
    nextNumber: around.next,
    number: chapter.number,
    price: chapter.price,
    title: chapter.title,
    totalNumber: book.chapterCount,
  };
}

/**
 * A chapter is readable when it is free, owned (bought, or a live wait-for-free or ticket unlock), or the reader
 * is VIP and the book is VIP-free (docs/api.md section 3); the answer says which in `unlock`. Otherwise the answer
 * is code 999 with the chapter's price charged now, no pages and what the reader may unlock it with (`unlockOptions`), or code
 * 101 when nobody is signed in. A readable priced chapter's pages come with grants.
 */
export async function readChapter(
  { repo, unlocks, grantPage }: CatalogDeps,
  { reader, ...q }: { bookId: number; number: number; reader: Reader | null },
): Promise<ChapterInfo> {
  const [book, chapter, around] = await lookUpChapter(repo, q.bookId, q.number);
  if (!book) throw bookNotFound();
  if (!chapter) throw noMoreChapters();
  const info = chapterInfo(book, chapter, around);
  const held = async (userId: number) => {
    const h = await unlocks.heldUnlock(userId, chapter.chapterId);
    return h && { source: h.source as Unlock['source'], endsAt: h.endsAt?.getTime() ?? null };
  };

  let unlock: ChapterInfo['unlock'] = { source: 'free', endsAt: null };
  if (!book.published) {
    // Gone for readers, but not for those who hold its chapters: only a held chapter opens, and nobody else
    // learns that the book is there.
    const owned = reader && (await held(reader.userId));
    if (!owned) throw bookNotFound();
    unlock = owned;
  } else if (chapter.price > 0) {
    if (!reader) throw userUnknown();
    const owned = await held(reader.userId);
    if (owned) unlock = owned;
    else if (reader.vipEndsAt !== null && book.vipFree) unlock = { source: 'vip', endsAt: reader.vipEndsAt };
    else {
      const options = await unlocks.unlockOptions(reader.userId, chapter.chapterId);
      // The price the buy prompt shows is the one coins would be charged now (a live discount for this reader
      // taken off), the same as unlockOptions.coins.price (docs/decisions.md, "One price in the buy prompt").
      const now = options ? { price: options.coins.price, bookPrice: options.coins.price } : {};
      throw chapterNotBought(options ? { ...info, ...now, unlockOptions: options } : info);
    }
  }

  const sizes = await repo.picSizes(chapter.pics);
  await repo.countRead(q.bookId);
  return {
    ...info,
    unlock,
    // A priced chapter's pages are served only through these granted paths (docs/api.md section 5).
    bookPics: chapter.price > 0 || !book.published ? chapter.pics.map(grantPage) : chapter.pics,
    bookPicSizes: chapter.pics.map((p) => sizes.get(p) ?? { width: 0, height: 0 }),
  };
}

/**
 * A free chapter of a published book, as read_chapter answers it to anyone, without counting a read; null for any
 * other chapter. The reader's page carries it for its first paint (modules/web/first-data.ts); the app's own
 * read_chapter then counts the read. Its pages need no grant, so nothing here is anyone's but the public's.
 */
export async function freeChapter(
  { repo }: CatalogDeps,
  q: { bookId: number; number: number },
): Promise<ChapterInfo | null> {
  const [book, chapter, around] = await lookUpChapter(repo, q.bookId, q.number);
  if (!book?.published || !chapter || chapter.price > 0) return null;
  const sizes = await repo.picSizes(chapter.pics);
  return {
    ...chapterInfo(book, chapter, around),
    unlock: { source: 'free', endsAt: null },
    bookPics: chapter.pics,
    bookPicSizes: chapter.pics.map((p) => sizes.get(p) ?? { width: 0, height: 0 }),
  };
}

export async function initSearch({ repo }: CatalogDeps) {
  return { hotWords: await repo.hotWords() };
}
