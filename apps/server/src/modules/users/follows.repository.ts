import type { Book, Follow, FollowChange, PileUp } from '@yueman/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../shared/rows.ts';

// The books each reader follows (追更), on the account. Only released chapters count (a scheduled chapter has a
// publish time until the scheduled-chapters job lets it out), and only published books are listed or followed.

/** How many follows the list answers, latest followed first: more than a shelf shows. */
const LIST_LIMIT = 200;

type Row = {
  book_id: number;
  followed_at: Date | string;
  seen_chapter: number;
  pile_up: number;
  latest: number | string | null;
  unread: number | string | null;
  title: string;
  author: string;
  cover: string;
  hori_cover: string;
  abstract_content: string;
  category_name: string;
  recommend: number;
  read_count: number;
  publish_status: Book['publishStatus'];
  chapter_count: number;
  vip_free: boolean;
};

const fromRow = (r: Row): Follow => ({
  bookId: r.book_id,
  followedAt: new Date(r.followed_at).getTime(),
  seenChapter: r.seen_chapter,
  pileUp: r.pile_up as PileUp,
  latestChapter: Number(r.latest ?? 0),
  unread: r.unread === null ? null : Number(r.unread),
  book: {
    bookId: r.book_id,
    title: r.title,
    author: r.author,
    cover: r.cover,
    horiCover: r.hori_cover,
    abstractContent: r.abstract_content,
    categoryName: r.category_name,
    recommend: r.recommend,
    readCount: r.read_count,
    publishStatus: r.publish_status,
    chapterCount: r.chapter_count,
    vipFree: r.vip_free,
  },
});

/** The newest released chapter's number of book `bookId` (an SQL expression), 0 when none is out. */
const latestOf = (bookId: ReturnType<typeof sql>) =>
  sql`coalesce((select max(c.number) from chapters c where c.book_id = ${bookId} and c.publish_at is null), 0)`;

/** A follow whose 攒更 is reached: this many released chapters the reader has not read nor been told of. */
export interface PileReached {
  userId: number;
  bookId: number;
  pileUp: number;
  newChapters: number;
  latestChapter: number;
}

export function createFollowsRepository(db: Database) {
  return {
    async list(userId: number): Promise<Follow[]> {
      const rows = rowsOf<Row>(
        await db.execute(sql`
          select f.book_id, f.followed_at, f.seen_chapter, f.pile_up, ${latestOf(sql`f.book_id`)} as latest,
            case when p.chapter_number is null then null else (
              select count(*) from chapters c
              where c.book_id = f.book_id and c.publish_at is null and c.number > p.chapter_number
            ) end as unread,
            b.title, b.author, b.cover, b.hori_cover, b.abstract_content, cat.name as category_name, b.recommend,
            b.read_count, b.publish_status, b.chapter_count, b.vip_free
          from follows f
          join books b on b.id = f.book_id and b.published
          join categories cat on cat.id = b.category_id
          left join reading_progress p on p.user_id = f.user_id and p.book_id = f.book_id
          where f.user_id = ${userId}
          order by f.followed_at desc, f.book_id desc limit ${LIST_LIMIT}`),
      );
      return rows.map(fromRow);
    },

    /**
     * Applies the changes in order, in one transaction. A new follow starts as seen up to the newest released
     * chapter unless the change says otherwise; what was seen only grows (two devices: the larger wins); a 攒更
     * setting counts its pile from the newest chapter at the time it is set. Books missing or unpublished: skipped.
     */
    async save(userId: number, changes: readonly FollowChange[], now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        for (const c of changes) {
          if (!c.followed) {
            await tx.execute(sql`delete from follows where user_id = ${userId} and book_id = ${c.bookId}`);
            continue;
          }
          const latest = latestOf(sql`b.id`);
          const seen = c.seenChapter === undefined ? latest : sql`${c.seenChapter}::integer`;
          const pile = c.pileUp === undefined ? sql`0` : sql`${c.pileUp}::smallint`;
          await tx.execute(sql`
            insert into follows (user_id, book_id, followed_at, seen_chapter, pile_up, pile_told_chapter)
            select ${userId}::integer, b.id, ${now.toISOString()}::timestamptz, ${seen}, ${pile}, ${latest}
            from books b where b.id = ${c.bookId} and b.published
            on conflict (user_id, book_id) do update set
              seen_chapter = greatest(follows.seen_chapter, ${
                // A follow sent again without a seen chapter (a retry, another device's pull) says nothing of what was
                // seen: taking the newest chapter then would put out the dot of a release the reader never saw.
                c.seenChapter === undefined ? sql`follows.seen_chapter` : sql`excluded.seen_chapter`
              })
              ${
                c.pileUp === undefined
                  ? sql``
                  : sql`, pile_up = excluded.pile_up, pile_told_chapter = case
                      when follows.pile_up = excluded.pile_up then follows.pile_told_chapter
                      else excluded.pile_told_chapter end`
              }`);
        }
      });
    },

    /**
     * The follows whose 攒更 is reached now: at least `pile_up` released chapters after both the chapter the reader
     * last read and the newest chapter when they were last told (or set the pile). What the notices read.
     */
    async pilesReached(limit: number): Promise<PileReached[]> {
      const rows = rowsOf<{
        user_id: number;
        book_id: number;
        pile_up: number;
        new_chapters: number | string;
        latest: number | string;
      }>(
        await db.execute(sql`
          select f.user_id, f.book_id, f.pile_up, n.new_chapters, n.latest
          from follows f
          join books b on b.id = f.book_id and b.published
          left join reading_progress p on p.user_id = f.user_id and p.book_id = f.book_id
          cross join lateral (
            select count(*) as new_chapters, coalesce(max(c.number), 0) as latest from chapters c
            where c.book_id = f.book_id and c.publish_at is null
              and c.number > greatest(f.pile_told_chapter, coalesce(p.chapter_number, 0))
          ) n
          where f.pile_up > 0 and n.new_chapters >= f.pile_up
          order by f.user_id, f.book_id limit ${limit}`),
      );
      return rows.map((r) => ({
        userId: r.user_id,
        bookId: r.book_id,
        pileUp: r.pile_up,
        newChapters: Number(r.new_chapters),
        latestChapter: Number(r.latest),
      }));
    },

    /** The reader was told of the pile up to `chapter`: the next pile counts from there (never backwards). */
    async pileTold(userId: number, bookId: number, chapter: number): Promise<void> {
      await db.execute(sql`
        update follows set pile_told_chapter = greatest(pile_told_chapter, ${chapter}::integer)
        where user_id = ${userId} and book_id = ${bookId}`);
    },
  };
}
export type FollowsRepository = ReturnType<typeof createFollowsRepository>;
