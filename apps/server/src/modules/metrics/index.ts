import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../module-context.ts';
import { registerDrain } from './drain.ts';
import { watchMemoryBound } from './memory-bound.ts';
import { createInstruments } from './metrics.instruments.ts';
import type { MetricsPort } from './metrics.port.ts';
import { createMetricsRepository } from './metrics.repository.ts';
import { metricsRoutes } from './metrics.routes.ts';
import { createReadiness } from './readiness.ts';

export type { BusinessEvent, MetricsPort } from './metrics.port.ts';
export type { ReadinessReport, ReadinessState } from './readiness.ts';

/** How long a readiness check may take before /readyz says 'timeout'. */
export const READY_CHECK_TIMEOUT_MS = 2000;

/**
 * Operations: GET /readyz (traffic or not: database and image store reachable, not starting, not draining),
 * GET /metrics (Prometheus text, behind METRICS_TOKEN), the hooks that count every request, and the drain's
 * hooks (drain.ts). GET /healthz (the process answers) stays in app.ts.
 */
export async function registerMetrics(app: FastifyInstance, ctx: ModuleContext): Promise<MetricsPort> {
  const repo = createMetricsRepository(ctx.db);
  const instruments = createInstruments({
    pool: repo.poolStats,
    memory: ctx.memory,
    databaseWasmBytes: repo.databaseWasmBytes,
  });
  watchMemoryBound(app, ctx.memory.boundBytes);

  // The store says whether it can be used: the local directories readable and writable, or the bucket answering.
  const images = () => ctx.ports.storage.ready();
  const readiness = createReadiness({
    database: repo.ping,
    images,
    disk: ctx.diskGuard ? () => ctx.diskGuard as { low: boolean; freeBytes: number } : undefined,
    timeoutMs: READY_CHECK_TIMEOUT_MS,
  });

  app.addHook('onReady', (done) => {
    readiness.ready();
    done();
  });
  registerDrain(app, readiness);
  // Callback style: no promise per request. The route's pattern, never the raw URL, keeps the labels bounded.
  app.addHook('onResponse', (request, reply, done) => {
    instruments.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  await metricsRoutes(app, { readiness, instruments, token: ctx.config.metricsToken });

  return {
    count(e) {
      switch (e.event) {
        case 'order-created':
          return instruments.orderCreated(e.purpose);
        case 'orders-expired':
          return instruments.ordersExpired(e.count);
        case 'pay-notification':
          return instruments.notification(e.outcome);
        case 'chapter-bought':
          return instruments.chapterBought(e.coins);
      }
    },
    imageCache: instruments.imageCache,
    imageResized: instruments.imageResized,
  };
}
