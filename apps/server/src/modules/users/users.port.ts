import type { UserInfo } from '@yueman/contract';

/** What other modules may ask of the users module. */
export interface UsersPort {
  /** The user info of the spec's section 3 (401 when the user is gone). */
  userInfo(userId: number): Promise<UserInfo>;
  /**
   * The visitor id and promotion branch a user registered with, for attributing an order, and whether an operator
   * blocked them (no paying); undefined if unknown.
   */
  attributionOf(
    userId: number,
  ): Promise<{ visitorId: string; branchId: number; blocked: boolean } | undefined>;
  /**
   * The readers the console's search box input means (account, bound mobile, user id or visitor id), at most
   * `limit`; 400 naming `field` when the input is none of those shapes.
   */
  readerIdsMatching(input: string, field: string, limit?: number): Promise<number[]>;
  /** Removes sessions that ended before `now` (the session sweeper's pass); answers how many. */
  sweepExpiredSessions(now?: Date): Promise<number>;
  /** A one-time link signing another browser in to this account, landing on `to` (handoff.service.ts). */
  issueHandoff(userId: number, to: string): Promise<{ url: string }>;
  /** The reader was told of a follow's 攒更 pile up to `chapter`: the next pile counts from there. */
  pileTold(userId: number, bookId: number, chapter: number): Promise<void>;
}
