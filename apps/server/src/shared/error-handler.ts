import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from './errors.ts';

export const PLACE_NAMES: Record<string, string> = {
  querystring: '参数',
  params: '路径参数',
  body: '表单字段',
  headers: '请求头',
};

/** The field a validation failure is about (`title`, `chapters.2.price`), if one. */
function invalidField(error: FastifyError): string | undefined {
  const first = error.validation?.[0];
  if (!first) return undefined;
  const params = first.params as { missingProperty?: string };
  if (params.missingProperty) return params.missingProperty;
  return first.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined;
}

/** A malformed-input message in Chinese that names the field, e.g. "参数 page 不正确". */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  const place = PLACE_NAMES[error.validationContext ?? ''] ?? '参数';
  const field = invalidField(error);
  if (!first || !field) return `${place}不正确`;
  return (first.params as { missingProperty?: string }).missingProperty
    ? `缺少${place} ${field}`
    : `${place} ${field} 不正确`;
}

function send(reply: FastifyReply, status: number, code: number, msg: string, data: unknown = null) {
  // Error answers skip the route's response schema: their data need not have the success shape.
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send({ result: false, code, msg, data });
}

/** The one place where failures become envelopes; internals stay in the log, with the request id. */
export function registerErrorHandler(app: FastifyInstance) {
  // Unknown routes and methods, and URLs the router cannot decode (`/api/%ff`), answer the envelope too.
  app.setNotFoundHandler((_request, reply) => send(reply, 404, 404, '接口不存在'));
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.httpStatus === 403)
        request.log.warn({ security: true, msg: error.message }, 'identity mismatch');
      return send(reply, error.httpStatus, error.code, error.message, error.data);
    }
    if (error.validation) {
      // The console's forms put the message beside the field (docs/api.md section 9); the readers' calls keep
      // the spec's data null.
      const field = request.url.startsWith('/api/admin/') ? invalidField(error) : undefined;
      return send(reply, 400, 400, validationMessage(error), field ? { field } : null);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send(reply, 429, 429, '操作过于频繁，请稍后再试');
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return send(reply, status, status, status === 404 ? '请求的内容不存在' : '请求格式不正确');
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, 500, 500, '服务器开小差了，请稍后再试');
  });
}

/** Fastify's `frameworkErrors` option: a URL it cannot decode, before any route is found. */
export function frameworkError(_error: FastifyError, _request: unknown, reply: FastifyReply) {
  send(reply, 400, 400, '请求地址不正确');
}
