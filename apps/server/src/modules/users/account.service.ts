import { badRequest } from '../../shared/errors.ts';
import { hashPassword } from '../../shared/passwords/password.ts';
import type { PasswordGuard } from '../../shared/passwords/password-guard.ts';
import { hashToken, issueSession } from './sessions.ts';
import { mobileTaken, wrongCredentials } from './users.errors.ts';
import { type UsersDeps, userInfo } from './users.service.ts';

export interface AccountDeps extends UsersDeps {
  guard: PasswordGuard;
}

const MOBILE = /^1[0-9]{10}$/;

/**
 * Login by account name or bound mobile number. The answer does not say which of the two was wrong, and an
 * unknown name costs the same argon2 verification as a known one. Success starts a new session and ends the
 * request's old one.
 */
export async function login(
  deps: AccountDeps,
  input: { account: string; password: string; ip: string; oldToken: string | undefined },
) {
  const name = input.account.trim();
  if (name === '') throw badRequest('请输入手机号');
  if (input.password === '') throw badRequest('请输入密码');
  const user = await deps.repo.userByLoginName(name);
  const correct = await deps.guard.check({ user, name, password: input.password, ip: input.ip });
  if (!user || !correct) throw wrongCredentials();
  const session = await issueSession(deps.repo, user.id, input.oldToken);
  return { info: await userInfo(deps, { userId: user.id }), session };
}

/**
 * Binds a mobile number (11 digits starting with 1) to the signed-in user. A number bound to another user is
 * refused; binding the user's own number again succeeds. A password, when sent, must be the user's.
 */
export async function bindMobile(
  deps: AccountDeps,
  input: { userId: number; mobile: string; password: string | undefined; ip: string },
) {
  const mobile = input.mobile.trim();
  if (mobile === '') throw badRequest('请输入手机号');
  if (!MOBILE.test(mobile)) throw badRequest('请输入正确的手机号');
  if (input.password) {
    const user = await deps.repo.userById(input.userId);
    const name = user?.account ?? '';
    if (!(await deps.guard.check({ user, name, password: input.password, ip: input.ip })))
      throw wrongCredentials();
  }
  const bound = await deps.repo.setMobile(input.userId, mobile);
  if (!bound) throw mobileTaken();
  return userInfo(deps, { userId: input.userId });
}

/**
 * Sets a new password (any non-empty text; the contract caps it at 128 characters, the spec shows no rule) and signs out every
 * other session of the user; the session making the change stays.
 */
export async function modifyPassword(
  deps: AccountDeps,
  input: { userId: number; password: string; currentToken: string | undefined },
) {
  if (input.password.trim() === '') throw badRequest('请输入密码');
  const keep = input.currentToken ? hashToken(input.currentToken) : null;
  await deps.repo.setPassword(input.userId, await hashPassword(input.password), keep);
}
