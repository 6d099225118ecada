import { ACCOUNT_NOT_FOUND_MSG, AccountCode, type FoundAccount } from '@yueman/contract';
import { AppError, badRequest } from '../../shared/errors.ts';
import type { AccountDeps } from './account.service.ts';
import { generatePassword, hashPassword } from './password.ts';
import { hashToken, issueSession } from './sessions.ts';
import { visitorIdFrom } from './users.service.ts';

const DAY_MS = 24 * 3600 * 1000;
// China time is UTC+8 all year.
const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** The one answer for every date that does not lead to exactly one account (CONTRACT.md section 2). */
export const accountNotFound = () => new AppError(200, AccountCode.accountNotFound, ACCOUNT_NOT_FOUND_MSG);

/** The UTC instants [from, to) of a China-time calendar day 'YYYY-MM-DD'; undefined when not a real date. */
export function chinaDay(text: string): { from: Date; to: Date } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const midnightUtc = Date.UTC(year, month - 1, day);
  const check = new Date(midnightUtc);
  // Date.UTC rolls 2024-02-30 over to March: such a date is not real.
  if (year < 2000 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  const from = midnightUtc - CHINA_OFFSET_MS;
  return { from: new Date(from), to: new Date(from + DAY_MS) };
}

/**
 * Recovers the recharge account by the China-time day of a payment. Only paid orders of that day made from
 * the same device (x-trace-id) or the same network (client address) as this request count, so a stranger
 * cannot take an account by guessing dates. When exactly one account matches, its password is replaced by a
 * new generated one, every session of it ends, and this request gets a new session on it ('save and log in').
 */
export async function findAccount(
  deps: AccountDeps,
  input: { chargeTime: string; traceId: unknown; ip: string; oldToken: string | undefined },
): Promise<{ found: FoundAccount; session: { token: string; expiresAt: Date } }> {
  const text = input.chargeTime.trim();
  if (text === '') throw badRequest('请选择您的充值扣款日期');
  const day = chinaDay(text);
  if (!day) throw badRequest('充值扣款日期不正确，格式为 YYYY-MM-DD');

  const matches = await deps.repo.paidOrderAccounts({
    ...day,
    traceId: visitorIdFrom(input.traceId),
    ip: input.ip,
  });
  const [match] = matches;
  if (!match || matches.length > 1) throw accountNotFound();

  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const session = await issueSession(deps.repo, match.userId, input.oldToken);
  // Every other session of the account ends with the old password; the one just issued stays.
  await deps.repo.setPassword(match.userId, passwordHash, hashToken(session.token));
  return { found: { account: match.account, password }, session };
}
