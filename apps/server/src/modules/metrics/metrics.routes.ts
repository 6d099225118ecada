import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../shared/envelope.ts';
import { metricsOff, metricsTokenWrong, notReady } from './metrics.errors.ts';
import type { Instruments } from './metrics.instruments.ts';
import type { Readiness } from './readiness.ts';

export interface MetricsRouteDeps {
  readiness: Readiness;
  instruments: Instruments;
  /** METRICS_TOKEN; undefined: /metrics answers 404. */
  token: string | undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

// Load balancers and Prometheus poll these: their requests are not logged at info, only their failures.
const probe = { schema: { hide: true }, logLevel: 'warn' } as const;

export async function metricsRoutes(app: FastifyInstance, deps: MetricsRouteDeps) {
  app.get('/readyz', probe, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    const { ready, report } = await deps.readiness.check();
    if (!ready) throw notReady(report);
    return ok(report);
  });

  app.get('/metrics', probe, async (req, reply) => {
    if (deps.token === undefined) throw metricsOff();
    if (!bearerMatches(req.headers.authorization, deps.token)) {
      reply.header('www-authenticate', 'Bearer');
      throw metricsTokenWrong();
    }
    const text = await deps.instruments.render();
    return reply.header('cache-control', 'no-store').type(deps.instruments.contentType).send(text);
  });
}
