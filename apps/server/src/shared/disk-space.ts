import { statfs } from 'node:fs/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/**
 * The free space of the file system under DATA_DIR, where the embedded database lives. PGlite on a full file system
 * can hang in its WAL flush for good, so writes stop while less than `marginBytes` is left:
 * every request that may write (anything but GET, HEAD and OPTIONS) answers 503 in the envelope, reads still
 * work, and /readyz says `disk: 'low'`. Checked every `intervalMs` with statfs (one system call).
 */
export interface DiskGuard {
  /** Whether less than the margin is free (as of the last check). */
  readonly low: boolean;
  /** Free bytes for this user (statfs's bavail), as of the last check. */
  readonly freeBytes: number;
  readonly marginBytes: number;
  /** Checks now (start() does it once first). */
  check(): Promise<void>;
  start(): Promise<void>;
  stop(): void;
}

export function createDiskGuard(opts: {
  dir: string;
  marginBytes: number;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): DiskGuard {
  let low = false;
  let freeBytes = Number.POSITIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    try {
      const stats = await statfs(opts.dir);
      freeBytes = stats.bavail * stats.bsize;
    } catch (err) {
      // The directory exists while the server runs; a failure here is logged and the last reading kept.
      opts.log.warn({ err }, 'free space of DATA_DIR unknown');
      return;
    }
    const nowLow = freeBytes < opts.marginBytes;
    if (nowLow !== low) {
      const fields = {
        freeMb: Math.floor(freeBytes / 2 ** 20),
        marginMb: Math.floor(opts.marginBytes / 2 ** 20),
      };
      if (nowLow) opts.log.error(fields, 'DATA_DIR is nearly full: writes are refused until space is freed');
      else opts.log.warn(fields, 'DATA_DIR has free space again: writes are taken');
    }
    low = nowLow;
  };
  return {
    get low() {
      return low;
    },
    get freeBytes() {
      return freeBytes;
    },
    marginBytes: opts.marginBytes,
    check,
    async start() {
      await check();
      timer = setInterval(() => void check(), opts.intervalMs ?? 1000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** What a write answers while the disk is nearly full: 503, so clients and gateways retry later. */
export const diskLow = () =>
  new AppError(503, 503, '服务器存储空间不足，暂时无法保存，请稍后再试', { reason: 'disk-low' });

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses every request that may write while the guard says the disk is nearly full. */
export function registerDiskGuard(app: FastifyInstance, guard: DiskGuard) {
  app.addHook('onRequest', (req, _reply, done) => {
    if (guard.low && !READS.has(req.method)) {
      // Once per request: a load balancer or client retries; the operator has the error line of the guard.
      done(diskLow());
      return;
    }
    done();
  });
  app.addHook('onClose', () => guard.stop());
}
