import type { UserInfo } from '@yueman/contract';
import { chinaTimeParts } from '../../shared/china-time.ts';
import { AppError, badRequest } from '../../shared/errors.ts';
import { generateAccount, generatePassword, hashPassword } from './password.ts';
import { issueSession, isVip } from './sessions.ts';
import type { UsersRepository } from './users.repository.ts';

export interface UsersDeps {
  repo: UsersRepository;
  /** Coin balance of a user; the wallet domain answers it. */
  balanceOf: (userId: number) => Promise<number>;
}

const TRACE_ID = /^[A-Za-z0-9-]{8,64}$/;
export const DEFAULT_BRANCH = -2;

/** A well-formed x-trace-id is the visitor id; anything else is ignored. */
export const visitorIdFrom = (traceId: unknown) =>
  typeof traceId === 'string' && TRACE_ID.test(traceId) ? traceId : undefined;

export function branchIdFrom(header: unknown): number {
  const n = typeof header === 'string' ? Number(header) : Number.NaN;
  return Number.isInteger(n) && Math.abs(n) <= 2_147_483_647 ? n : DEFAULT_BRANCH;
}

export async function userInfo(deps: UsersDeps, userId: number, password = ''): Promise<UserInfo> {
  const user = await deps.repo.userById(userId);
  if (!user) throw new AppError(401, 401, '请先登录');
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
  input: { fromDomain: string; traceId: unknown; branchHeader: unknown; ip: string; oldToken?: string },
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
    });
    if (user) {
      const session = await issueSession(deps.repo, user.id, input.oldToken);
      return { info: await userInfo(deps, user.id, password), session };
    }
  }
  throw new AppError(500, 500, '注册失败，请稍后再试');
}

/** Records the first visit of a (branch, visitor) once; later reports change nothing. */
export async function markFirstVisit(
  deps: UsersDeps,
  input: {
    traceId: unknown;
    branchHeader: unknown;
    referUrl: string;
    userId: number | null;
    ip: string;
    userAgent: string;
  },
) {
  const visitorId = visitorIdFrom(input.traceId);
  if (!visitorId) throw badRequest('请求头 x-trace-id 不正确');
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
