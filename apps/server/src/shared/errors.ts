/**
 * Every failure a client can see, with its HTTP status and envelope code (docs/contract.md section 1).
 * Business outcomes (999, 400 no chapter, 101, find_account 404) answer HTTP 200 with result false;
 * transport problems answer their HTTP status with the same number as code.
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

export const badRequest = (msg: string) => new AppError(400, 400, msg);
export const unauthorized = (msg = '请先登录') => new AppError(401, 401, msg);
export const forbidden = (msg = '请求身份与登录状态不一致') => new AppError(403, 403, msg);
export const notFound = (msg = '请求的内容不存在') => new AppError(404, 404, msg);
export const tooManyRequests = (msg = '操作过于频繁，请稍后再试') => new AppError(429, 429, msg);

/** Business outcomes: HTTP 200, result false. */
export const noMoreChapters = () => new AppError(200, 400, '没有更多章节啦 ^_^');
export const paymentNeeded = (msg = '需要购买本章节', data: unknown = null) =>
  new AppError(200, 999, msg, data);
export const userUnknown = (msg = '信息获取失败，请返回稍后重试') => new AppError(200, 101, msg);
