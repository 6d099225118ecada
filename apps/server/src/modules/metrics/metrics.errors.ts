import { AppError, notFound } from '../../shared/errors.ts';

/** /readyz while starting, draining, or when the database or the image store does not answer. */
export const notReady = (report: object) => new AppError(503, 503, '服务暂不可用，请稍后再试', report);
/** /metrics on a server without METRICS_TOKEN: as if there were no such address. */
export const metricsOff = () => notFound('接口不存在');
/** /metrics without `Authorization: Bearer <METRICS_TOKEN>`. */
export const metricsTokenWrong = () => new AppError(401, 401, '需要正确的访问令牌');
