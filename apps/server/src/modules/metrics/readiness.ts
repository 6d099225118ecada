/**
 * Whether this server should be sent traffic (GET /readyz). 'starting' until the app is ready, 'ready', then
 * 'draining' from the moment shutdown begins (app.close(), on SIGTERM): a load balancer polling /readyz takes the
 * server out of rotation while it finishes what it holds. While ready, each probe asks the database and the image
 * store, each within `timeoutMs`.
 */
export type ReadinessState = 'starting' | 'ready' | 'draining';
export type CheckResult = 'ok' | 'failed' | 'timeout';

export interface ReadinessReport {
  status: ReadinessState | 'unavailable';
  database?: CheckResult;
  images?: CheckResult;
  /** With the embedded database: 'low' while DATA_DIR has less free space than its margin (writes are refused). */
  disk?: 'ok' | 'low';
  diskFreeMb?: number;
}

export interface ReadinessDeps {
  /** Resolves when the database answered a round trip. */
  database(): Promise<void>;
  /** Resolves when the image store can be read. */
  images(): Promise<void>;
  /** The free space of DATA_DIR, when watched. */
  disk?: () => { low: boolean; freeBytes: number };
  timeoutMs: number;
}

/** How a check went, never slower than `timeoutMs`. */
async function within(check: () => Promise<void>, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([
      check().then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function createReadiness(deps: ReadinessDeps) {
  let state: ReadinessState = 'starting';
  return {
    get state() {
      return state;
    },
    /** The app is ready (Fastify's onReady): probes now ask the database and the image store. */
    ready() {
      if (state === 'starting') state = 'ready';
    },
    /** Shutdown began: every probe answers not ready, at once, without asking anything. */
    drain() {
      state = 'draining';
    },
    async check(): Promise<{ ready: boolean; report: ReadinessReport }> {
      if (state !== 'ready') return { ready: false, report: { status: state } };
      const [database, images] = await Promise.all([
        within(deps.database, deps.timeoutMs),
        within(deps.images, deps.timeoutMs),
      ]);
      // Shutdown may have begun while the checks ran.
      const current = state as ReadinessState;
      const space = deps.disk?.();
      const disk = space ? (space.low ? ('low' as const) : ('ok' as const)) : undefined;
      const ready = current === 'ready' && database === 'ok' && images === 'ok' && disk !== 'low';
      const status = ready ? 'ready' : current === 'ready' ? 'unavailable' : current;
      if (!space) return { ready, report: { status, database, images } };
      const diskFreeMb = Math.floor(space.freeBytes / 2 ** 20);
      return { ready, report: { status, database, images, disk, diskFreeMb } };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
