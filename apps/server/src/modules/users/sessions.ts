import { createHash, randomBytes } from 'node:crypto';
import type { SignedInUser } from '../../shared/signed-in.ts';
import type { UsersRepository } from './users.repository.ts';

export const SESSION_COOKIE = 'sid';
const LIFETIME_MS = 365 * 24 * 3600 * 1000;
// Sliding lifetime without a write per request: extend once the session is a day old.
const EXTEND_AFTER_MS = 24 * 3600 * 1000;
// "Last seen" for the console, kept to the hour: at most one write an hour per reader.
const SEEN_EVERY_MS = 3600 * 1000;

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
) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LIFETIME_MS);
  await repo.replaceSession(replacing ? hashToken(replacing) : null, {
    tokenHash: hashToken(token),
    userId,
    expiresAt,
  });
  await repo.touchLastSeen(userId, now);
  return { token, expiresAt };
}

/** The user behind a cookie token, extending the session when due; null when unknown or expired. */
export async function resolveSession(
  repo: UsersRepository,
  token: string,
  now = new Date(),
): Promise<{ user: SignedInUser; renewedUntil: Date | null } | null> {
  const tokenHash = hashToken(token);
  const row = await repo.sessionUser(tokenHash, now);
  if (!row) return null;
  let renewedUntil: Date | null = null;
  if (row.expiresAt.getTime() - now.getTime() < LIFETIME_MS - EXTEND_AFTER_MS) {
    renewedUntil = new Date(now.getTime() + LIFETIME_MS);
    await repo.extendSession(tokenHash, renewedUntil);
  }
  if (row.lastSeenAt === null || now.getTime() - row.lastSeenAt.getTime() >= SEEN_EVERY_MS) {
    await repo.touchLastSeen(row.userId, now);
  }
  return {
    user: { userId: row.userId, account: row.account, vipEnd: row.vipEnd, blocked: row.blockedAt !== null },
    renewedUntil,
  };
}
