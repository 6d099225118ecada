import type { UserInfo } from '@yueman/contract';
import { branchIdFrom, visitorIdFrom } from '../../shared/attribution.ts';
import { chinaTimeParts } from '../../shared/china-time.ts';
import { AppError, badRequest } from '../../shared/errors.ts';
import { generateAccount, generatePassword, hashPassword } from '../../shared/passwords/password.ts';
import { isVip } from '../wallet/index.ts';
import { issueSession } from './sessions.ts';
import { noSuchUser } from './users.errors.ts';
import type { UsersRepository } from './users.repository.ts';

export interface UsersDeps {
  repo: UsersRepository;
  /** Coin balance of a user; the wallet's port answers it. */
  balanceOf: (userId: number) => Promise<number>;
}

/** The user info of the spec's section 3; `password` only in register's answer (it is never stored). */
export async function userInfo(
  deps: UsersDeps,
  { userId, password = '' }: { userId: number; password?: string },
): Promise<UserInfo> {
  const user = await deps.repo.userById(userId);
  if (!user) throw noSuchUser();
  const vip = isVip(user);
  const end = vip && user.vipEnd ? chinaTimeParts(user.vipEnd) : null;
  return {
    userId: user.id,
    account: user.account,
    password,
    visitorId: user.visitorId,
    branchId: user.branchId,
    vipType: vip ? 'vip' : 'none',
    avaliableAmount: await deps.balanceOf(user.id),
    mobile: user.mobile ?? '',
    vipEndYear: end?.year ?? 0,
    vipEndMonth: end?.month ?? 0,
    vipEndDay: end?.day ?? 0,
    vipEndHour: end?.hour ?? 0,
    vipEndDate: end?.text ?? '',
  };
}

/** Creates a visitor with a generated account and password; the password is answered this once. */
export async function register(
  deps: UsersDeps,
  input: {
    fromDomain: string;
    traceId: unknown;
    branchHeader: unknown;
    ip: string;
    oldToken?: string;
    /** False when the reader app was opened from the console: staff's visitor is no reader's first day. */
    seen?: boolean;
  },
) {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const visitorId = visitorIdFrom(input.traceId) ?? crypto.randomUUID();
  for (let attempt = 0; attempt < 5; attempt++) {
    const user = await deps.repo.insertUser({
      account: generateAccount(),
      passwordHash,
      visitorId,
      branchId: branchIdFrom(input.branchHeader),
      fromDomain: input.fromDomain.slice(0, 253),
      registerIp: input.ip,
      madeFromConsole: input.seen === false,
    });
    if (user) {
      const session = await issueSession(deps.repo, user.id, input.oldToken, new Date(), input.seen ?? true);
      return { info: await userInfo(deps, { userId: user.id, password }), session };
    }
  }
  throw new AppError(500, 500, '注册失败，请稍后再试');
}

/**
 * Records the first visit of a (branch, visitor) once; later reports change nothing. Staff's looking (the reader app
 * opened from the console, `seen` false) is no visit: nothing is recorded, so the funnel has no such cohort.
 */
export async function markFirstVisit(
  deps: UsersDeps,
  input: {
    traceId: unknown;
    branchHeader: unknown;
    referUrl: string;
    userId: number | null;
    ip: string;
    userAgent: string;
    seen?: boolean;
  },
) {
  const visitorId = visitorIdFrom(input.traceId);
  if (!visitorId) throw badRequest('请求头 x-trace-id 不正确');
  if (input.seen === false) return { firstVisit: false };
  const firstVisit = await deps.repo.markVisit({
    branchId: branchIdFrom(input.branchHeader),
    visitorId,
    userId: input.userId,
    referUrl: input.referUrl.slice(0, 2048),
    clientIp: input.ip,
    userAgent: input.userAgent.slice(0, 512),
  });
  return { firstVisit };
}
