import { ACCOUNT_NOT_FOUND_MSG, Code, LOGIN_FAILED_MSG, MOBILE_TAKEN_MSG } from '@yueman/contract';
import { AppError, businessError } from '../../shared/errors.ts';

/** Business answer (HTTP 200, result false) for a wrong account or password: the spec's login message. */
export const wrongCredentials = () => businessError(Code.wrongCredentials, LOGIN_FAILED_MSG);

export const mobileTaken = () => businessError(Code.mobileTaken, MOBILE_TAKEN_MSG);

/** The one answer for every find-account request that does not lead to exactly one account. */
export const accountNotFound = () => businessError(Code.notFound, ACCOUNT_NOT_FOUND_MSG);

/** A user the session named is gone (deleted while signed in). */
export const noSuchUser = () => new AppError(401, Code.unauthorized, '请先登录');

export { TooManyAttempts } from '../../shared/passwords/too-many-attempts.ts';
