import { type Static, Type } from 'typebox';
import { Book } from './catalog.ts';

// Following a series (追更) and the release calendar (更新日历), past the spec. A reader's follows are kept on the
// account like reading progress; the calendar is the same for everyone (the web app puts followed books first).

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** 攒更: tell the reader once this many new chapters have piled up (0: off). */
export const PILE_UP_CHOICES = [0, 3, 5, 10] as const;
export const PileUp = Type.Union([Type.Literal(0), Type.Literal(3), Type.Literal(5), Type.Literal(10)]);
export type PileUp = Static<typeof PileUp>;

export const Follow = Type.Object({
  bookId: Type.Integer(),
  /** When the reader followed it: Unix milliseconds. */
  followedAt: Type.Integer(),
  /** The newest released chapter the reader has seen listed (the shelf looked at); 0: none yet. */
  seenChapter: Type.Integer(),
  pileUp: PileUp,
  /** The newest released chapter's number (0: none out yet). Scheduled chapters count from their time on. */
  latestChapter: Type.Integer(),
  /** Released chapters after the one the reader last read; null when they have not started the book. */
  unread: Type.Union([Type.Integer(), Type.Null()]),
  book: Book,
});
export type Follow = Static<typeof Follow>;

export const FollowList = Type.Array(Follow);
export type FollowList = Static<typeof FollowList>;

/** One follow change: followed or not, and optionally what the reader has seen and their 攒更 setting. */
export const FollowChange = Type.Object({
  bookId: Id,
  followed: Type.Boolean(),
  /** Kept if newer than what the account holds (the larger wins). */
  seenChapter: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  pileUp: Type.Optional(PileUp),
});
export type FollowChange = Static<typeof FollowChange>;

/**
 * POST /api/user/follows (a form or JSON): one change (a tap, the shelf looked at; a device's list merged in at login
 * is one call a book). A book that does not exist or is not published is skipped. Answers the account's follows.
 */
export const SaveFollowsBody = FollowChange;
export type SaveFollowsBody = Static<typeof SaveFollowsBody>;

export const CalendarBook = Type.Object({
  book: Book,
  /** The chapters scheduled to come out that day (China time), by number; empty when only the weekday says so. */
  chapters: Type.Array(
    Type.Object({ number: Type.Integer(), title: Type.String(), publishAt: Type.Integer() }),
  ),
});
export type CalendarBook = Static<typeof CalendarBook>;

export const CalendarDay = Type.Object({
  /** The China-time day, YYYY-MM-DD. */
  date: Type.String(),
  /** ISO weekday, 1 Monday … 7 Sunday. */
  weekday: Type.Integer({ minimum: 1, maximum: 7 }),
  books: Type.Array(CalendarBook),
});
export type CalendarDay = Static<typeof CalendarDay>;

/** GET /api/book/calendar: today and the six days after it (China time), each with the books releasing that day. */
export const ReleaseCalendar = Type.Array(CalendarDay);
export type ReleaseCalendar = Static<typeof ReleaseCalendar>;
