import { randomBytes } from 'node:crypto';
import type { UserInfo } from '@yueman/contract';
import { badRequest, tooManyRequests } from '../../shared/errors.ts';
import { HANDOFF_PATH, safeLandingPath } from '../../shared/landing-path.ts';
import { hashToken, issueSession } from './sessions.ts';
import { type UsersDeps, userInfo } from './users.service.ts';

// Out of WeChat (or QQ) without losing the account: the spec sends chat-app readers to a page asking them to open the
// system browser, where they would arrive as strangers with a new visitor account. That page asks for a one-time
// link: random (256 bits), ten minutes, one use, bound to the account that asked; only its SHA-256 is stored, and
// the token travels in a link and a POST body, never in a logged URL of ours. Opening it in another browser signs
// that browser in.

export { HANDOFF_PATH };

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const LIFETIME_MS = 10 * 60 * 1000;
/** Links one account may ask for in an hour: a reader needs one or two. */
const PER_ACCOUNT_PER_HOUR = 10;

export interface HandoffDeps extends UsersDeps {
  publicOrigin: string;
}

export { safeLandingPath };

/** A one-time link that signs another browser in to this account, landing on `to` (a path of this site). */
export async function issueHandoff(
  deps: HandoffDeps,
  { userId, to, now = new Date() }: { userId: number; to: string | undefined; now?: Date },
) {
  const recent = await deps.repo.handoffsSince(userId, new Date(now.getTime() - 3600_000));
  if (recent >= PER_ACCOUNT_PER_HOUR) throw tooManyRequests();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LIFETIME_MS);
  await deps.repo.insertHandoff({ tokenHash: hashToken(token), userId, createdAt: now, expiresAt });
  const landing = safeLandingPath(to);
  const url = `${deps.publicOrigin}${HANDOFF_PATH}?token=${token}&to=${encodeURIComponent(landing)}`;
  return { url, expiresAt: expiresAt.toISOString() };
}

/**
 * Spends a link (two tabs at once sign in one) and answers a new session of its account, replacing the browser's
 * own (`oldToken`), with the account's info; a link unknown, used or expired is refused (400) and logged.
 */
export async function redeemHandoff(
  deps: UsersDeps & { log: { info(obj: object, msg: string): void } },
  { token, oldToken }: { token: string; oldToken: string | undefined },
): Promise<{ session: { token: string; expiresAt: Date }; user: UserInfo }> {
  const spent = TOKEN.test(token) ? await deps.repo.spendHandoff(hashToken(token), new Date()) : undefined;
  if (!spent) {
    deps.log.info({ security: 'handoff-refused' }, 'hand-off link unknown, used or expired');
    throw badRequest('链接已失效，请回到微信重新获取', 'token');
  }
  const session = await issueSession(deps.repo, spent.userId, oldToken);
  deps.log.info({ security: 'handoff', userId: spent.userId }, 'account handed to another browser');
  return { session, user: await userInfo(deps, { userId: spent.userId }) };
}
