import type { FastifyRequest } from 'fastify';
import pino, { type LoggerOptions } from 'pino';

/**
 * What reaches the log. The original client sends passwords in the query of the account calls, gateways sign their
 * notifications, and database errors carry their bound parameters (a password hash among them): none of that may
 * be written down. So request URLs lose the query of those calls and every secret-looking parameter elsewhere,
 * headers that carry credentials are censored wherever they appear, and database errors are logged by their codes.
 */

/** Calls whose whole query is private: the account calls and gateways' notifications. */
const PRIVATE_QUERY = /^\/api\/(user\/(login|register|bind_mobile|modifyPwd|find_account)|pay\/notify\/)/;
/**
 * Parameter names that carry secrets on any other call (code and state: an OAuth code, which a thief could exchange,
 * and the order number WeChat's OAuth brings back as its state).
 */
const SECRET_PARAM = /pass|pwd|token|sign|key|secret|order_?no|charge_?time|mobile|account|^code$|^state$/i;
export const REDACTED = '[redacted]';

/** A merchant order number of ours in a path (`/api/admin/orders/YM…`): it recovers an account (find-account). */
const ORDER_NO_SEGMENT = /\/YM\d{8}[0-9A-F]{16}(?=\/|\?|$)/gi;

export function redactUrl(url: string): string {
  url = url.replace(ORDER_NO_SEGMENT, `/${REDACTED}`);
  const q = url.indexOf('?');
  if (q === -1) return url;
  const path = url.slice(0, q);
  if (PRIVATE_QUERY.test(path)) return `${path}?${REDACTED}`;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of new Set(params.keys())) if (SECRET_PARAM.test(name)) params.set(name, REDACTED);
  return `${path}?${params}`;
}

function requestSerializer(req: FastifyRequest) {
  // Something else logged under `req` (not Fastify's request): left to the redaction paths below.
  if (typeof req?.url !== 'string') return req;
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** A PostgreSQL or PGlite error: a five-character SQLSTATE and the server's own fields. */
interface DatabaseError {
  code: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  severity?: string;
}

const isDatabaseError = (err: unknown): err is DatabaseError =>
  typeof err === 'object' &&
  err !== null &&
  typeof (err as DatabaseError).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((err as DatabaseError).code) &&
  ('severity' in err || 'routine' in err);

/**
 * Database errors (drizzle wraps the driver's in `cause`, with the SQL and its parameters in its message) become
 * their codes only: never the message, the detail (`Key (x)=(value)`) or the parameters.
 */
function errorSerializer(err: unknown) {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isDatabaseError(e)) {
      const { code, constraint, table, column, routine, severity } = e;
      return { type: 'DatabaseError', code, constraint, table, column, routine, severity };
    }
  }
  const serialized = pino.stdSerializers.err(err as Error);
  // A wrapped query error from a driver we do not know: keep the type, drop what may carry values.
  if (serialized && /Failed query|params:/i.test(serialized.message ?? '')) {
    return { type: serialized.type, message: 'database query failed' };
  }
  return serialized;
}

/** The logger settings of the server and of main.ts, so both write the same, redacted, lines. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: { req: requestSerializer as never, err: errorSerializer, error: errorSerializer },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'headers.cookie',
        'headers.authorization',
        'headers["set-cookie"]',
        'res.headers["set-cookie"]',
        'password',
        'passwordHash',
        '*.password',
        '*.passwordHash',
      ],
      censor: REDACTED,
    },
  };
}
