import { createHash, randomBytes } from 'node:crypto';
import { chinaDate } from '../../shared/china-time.ts';
import type { SignedInUser } from '../../shared/signed-in.ts';
import type { UsersRepository } from './users.repository.ts';

export const SESSION_COOKIE = 'sid';
const LIFETIME_MS = 365 * 24 * 3600 * 1000;
// Sliding lifetime without a write per request: extend once the session is a day old.
const EXTEND_AFTER_MS = 24 * 3600 * 1000;
// "Last seen" for the console, kept to the hour: at most one write an hour per reader.
const SEEN_EVERY_MS = 3600 * 1000;

/**
 * Whether a request counts as the reader being seen (last-seen, the China days of the dashboard's retention): not
 * when the reader app was opened from the console (`from=console`), where the browser is staff's looking at a
 * reader's page. The web app says so with this header; a reader who sent it would only leave themselves out of a
 * count, so no check of it is needed.
 */
export const OPENED_FROM_HEADER = 'x-opened-from';
export const countsAsSeen = (headers: Record<string, unknown>) => headers[OPENED_FROM_HEADER] !== 'console';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Issues a new session: 32 random bytes to the cookie, only their SHA-256 to the database. The request's old
 * session, whoever it belonged to, ends in the same transaction: register, login and find-account rotate.
 */
export async function issueSession(
  repo: UsersRepository,
  userId: number,
  replacing: string | undefined,
  now = new Date(),
  seen = true,
) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LIFETIME_MS);
  await repo.replaceSession(replacing ? hashToken(replacing) : null, {
    tokenHash: hashToken(token),
    userId,
    expiresAt,
  });
  // A new session is a moment seen: the China day is recorded (on conflict nothing) whatever the last-seen says.
  if (seen) await repo.touchLastSeen(userId, now, chinaDate(now));
  return { token, expiresAt };
}

/**
 * The user behind a cookie token, extending the session when due; null when unknown or expired. When `seen`, the
 * reader's last-seen is refreshed once it is an hour old or from an earlier China day, and a new China day is
 * recorded then: one write a day at most for the days, never one per request.
 */
export async function resolveSession(
  repo: UsersRepository,
  token: string,
  now = new Date(),
  seen = true,
): Promise<{ user: SignedInUser; renewedUntil: Date | null } | null> {
  const tokenHash = hashToken(token);
  const row = await repo.sessionUser(tokenHash, now);
  if (!row) return null;
  let renewedUntil: Date | null = null;
  if (row.expiresAt.getTime() - now.getTime() < LIFETIME_MS - EXTEND_AFTER_MS) {
    renewedUntil = new Date(now.getTime() + LIFETIME_MS);
    await repo.extendSession(tokenHash, renewedUntil);
  }
  if (seen) {
    const today = chinaDate(now);
    const last = row.lastSeenAt;
    // A new China day refreshes at once, however recent the last write: 23:50 then 00:10 is a second day.
    if (last === null || chinaDate(last) !== today) await repo.touchLastSeen(row.userId, now, today);
    else if (now.getTime() - last.getTime() >= SEEN_EVERY_MS) await repo.touchLastSeen(row.userId, now);
  }
  return {
    user: { userId: row.userId, account: row.account, vipEnd: row.vipEnd, blocked: row.blockedAt !== null },
    renewedUntil,
  };
}
