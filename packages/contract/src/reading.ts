import { type Static, Type } from 'typebox';

// Where a reader stopped in a book, kept on the account so another device resumes there (past the spec: an "exact
// resume"). Last write wins by the time the reader was there.

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const ReadingProgress = Type.Object({
  bookId: Id,
  chapterNumber: Id,
  /** 1-based page of the chapter. */
  pageNumber: Type.Integer({ minimum: 1, maximum: 10000 }),
  /** How far down that page the top of the screen was, 0 to 1. */
  pageOffset: Type.Number({ minimum: 0, maximum: 1 }),
  /** When the reader was there: Unix milliseconds, the device's clock. */
  readAt: Type.Integer({ minimum: 0 }),
});
export type ReadingProgress = Static<typeof ReadingProgress>;

/** POST /api/user/reading_progress (JSON): saved unless the account holds a later one, which is answered instead. */
export const SaveProgressBody = ReadingProgress;

export const ProgressQuery = Type.Object({
  /** One book's progress; without it, the account's latest, newest first. */
  bookId: Type.Optional(Id),
});

export const ProgressList = Type.Array(ReadingProgress);
export type ProgressList = Static<typeof ProgressList>;
