import type { FastifyInstance } from 'fastify';

/** How often the resident memory is compared with its bound. */
const CHECK_EVERY_MS = 60_000;

/**
 * Watches the process's resident memory against MEMORY_BOUND_MB once a minute: a warning when it goes above (with
 * the figures that say where: the V8 heap, external memory and array buffers) and an info line when it is back
 * under. /metrics shows the same at every scrape (yueman_memory_bound_bytes beside process_resident_memory_bytes).
 */
export function watchMemoryBound(app: FastifyInstance, boundBytes: number, everyMs = CHECK_EVERY_MS) {
  let above = false;
  const check = () => {
    const usage = process.memoryUsage();
    const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
    const figures = {
      rssMb: mb(usage.rss),
      boundMb: mb(boundBytes),
      heapUsedMb: mb(usage.heapUsed),
      heapTotalMb: mb(usage.heapTotal),
      externalMb: mb(usage.external),
      arrayBuffersMb: mb(usage.arrayBuffers),
    };
    if (usage.rss > boundBytes && !above) {
      above = true;
      app.log.warn(figures, 'memory above its bound (MEMORY_BOUND_MB)');
    } else if (usage.rss <= boundBytes && above) {
      above = false;
      app.log.info(figures, 'memory back under its bound');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', (done) => {
    timer = setInterval(check, everyMs);
    timer.unref();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    done();
  });
}
