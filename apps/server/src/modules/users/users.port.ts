import type { UserInfo } from '@yueman/contract';

/** What other modules may ask of the users module. */
export interface UsersPort {
  /** The user info of the spec's section 3 (401 when the user is gone). */
  userInfo(userId: number): Promise<UserInfo>;
  /** The visitor id and promotion branch a user registered with, for attributing an order; undefined if unknown. */
  attributionOf(userId: number): Promise<{ visitorId: string; branchId: number } | undefined>;
  /** Removes sessions that ended before `now` (the session sweeper's pass); answers how many. */
  sweepExpiredSessions(now?: Date): Promise<number>;
}
