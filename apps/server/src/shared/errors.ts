import { Code } from '@yueman/contract';

/**
 * Every failure a client can see, with its HTTP status and envelope code (docs/api.md section 1).
 * Business outcomes (999, 400 no chapter, 101, find_account 404) answer HTTP 200 with result false;
 * transport problems answer their HTTP status with the same number as code. Each module words its own
 * failures in <domain>.errors.ts with these builders.
 */
export class AppError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    /** Sent as the envelope's data: e.g. the price of a chapter that must be bought first. */
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** `field`: the console's form shows the message beside it (the readers' calls never name one: data stays null). */
export const badRequest = (msg: string, field?: string) =>
  new AppError(400, Code.badRequest, msg, field ? { field } : null);
export const unauthorized = (msg = '请先登录') => new AppError(401, Code.unauthorized, msg);
export const forbidden = (msg = '请求身份与登录状态不一致') => new AppError(403, Code.forbidden, msg);
export const notFound = (msg = '请求的内容不存在') => new AppError(404, Code.notFound, msg);
export const tooManyRequests = (msg = '操作过于频繁，请稍后再试') =>
  new AppError(429, Code.tooManyRequests, msg);

/** A business outcome: HTTP 200, result false, with one of the contract's codes. */
export const businessError = (code: number, msg: string, data: unknown = null) =>
  new AppError(200, code, msg, data);
export const paymentNeeded = (msg: string, data: unknown = null) =>
  businessError(Code.paymentNeeded, msg, data);
export const userUnknown = (msg = '信息获取失败，请返回稍后重试') => businessError(Code.userUnknown, msg);
